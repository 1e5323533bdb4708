/**
 * The money the gateway moved on a payment Medusa already holds, brought into Medusa by the sync
 * (MedusaChanges in medusa-payments.ts): a capture or refund made outside Medusa (its back office,
 * a lost answer settled since, a row Medusa deleted after the gateway made it), a capture the
 * gateway cancelled, a void. Each is recorded through Medusa's own workflows and module, keyed by
 * the gateway's operation id, under the payment's lock: each gateway operation once, whoever reads.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { MathBN, Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import BigNumber from "bignumber.js"
import { isOrphaned, type PaymentLedger } from "../modules/nexi-ledger/types"
import { minorToMajorString, toMinorUnits, totalMinorUnits } from "../money/amount"
import type { CardOrderOperation } from "./card/card-order"
import {
  CANCELLED_CAPTURE_KEY,
  isCancelledCapture,
  MONEY_ROW_FIELDS,
  type MoneyRow,
  NEXI_OPERATION_KEY,
  ROW_SERVICES,
  recordedOperationIds,
  totalOfRows,
} from "./medusa-records"
import type { PaymentStatus } from "./session-data"

/** What one read says about a payment, in minor units of `currency`. */
export interface GatewayPayment {
  status: PaymentStatus
  reason?: string
  currency: string
  authorizedMinor: string
  capturedMinor: string
  /** A card's refunds settled at the gateway (the read model's sum); mobile payments' refunds are their own writes. */
  refundedMinor?: string
  /** The gateway order or mobile transaction the payment's writes are sent as (the ledger's gateway_ref). */
  gatewayRef: string
  /** A card's gateway order: its captures and refunds are mirrored into Medusa. Mobile payments have none. */
  orderId?: string
  captureOperationId?: string
  /** Its refunds not rolled back; `settled` once the money is back on the card (the read model's word). */
  refunds?: Array<{ operationId: string; amountMinor: string; settled: boolean }>
  /** A card's operations as the read model reads them: a capture a CANCEL undid is recorded as a refund. */
  operations?: CardOrderOperation[]
}

/** Runs `job` holding the one lock of a Medusa payment (staff actions take the same one). */
export type PaymentLock = <T>(paymentId: string, job: () => Promise<T>) => Promise<T>
/** What the recording did: each gateway operation Medusa lacked is recorded once, by whoever reads first. */
export type MoneyRecorded = "refund_recorded" | "capture_recorded" | "void_recorded" | "unchanged"

type PaymentRow = {
  id: string
  amount: unknown
  raw_amount?: unknown
  canceled_at?: unknown
  captures: MoneyRow[]
  refunds: MoneyRow[]
}

export interface GatewayMoneyDeps {
  container: MedusaContainer
  payments: IPaymentModuleService
  ledger: PaymentLedger
  lockPayment: PaymentLock
}

export class GatewayMoneyRecords {
  constructor(private readonly deps: GatewayMoneyDeps) {}

  /** What the gateway moved that Medusa's payment of `sessionId` lacks, recorded: captures, refunds, cancels, a void. */
  async record(sessionId: string, payment: GatewayPayment): Promise<MoneyRecorded> {
    const money = payment.orderId ? await this.recordGatewayMoney(sessionId, payment) : "unchanged"
    const voided = payment.status === "canceled" ? await this.recordVoid(sessionId, payment) : "unchanged"
    return voided === "unchanged" ? money : voided
  }

  /**
   * The notification (in several copies), the job and a staff Sync may all see one back-office
   * operation at once. Under the payment's lock, Medusa's captures and refunds are read again
   * and only what they still lack is recorded: each gateway operation once.
   */
  private async recordGatewayMoney(sessionId: string, payment: GatewayPayment): Promise<MoneyRecorded> {
    const cancels = await this.cancelledCaptures(payment)
    // Without a capture, a settled refund or a cancelled capture at the gateway Medusa can lack nothing: no read.
    if (!payment.captureOperationId && !payment.refunds?.some((refund) => refund.settled) && !cancels.length)
      return "unchanged"
    const before = await this.paymentOf(sessionId)
    // Most reads find nothing new: the lock is taken only when there is something to record.
    const lacks = (record: PaymentRow) =>
      this.captureMissing(record, payment) > 0n ||
      this.refundMissing(record, payment) > 0n ||
      this.cancelsMissing(record, cancels).length > 0
    if (!before || !lacks(before)) return "unchanged"
    return this.deps.lockPayment(before.id, async () => {
      const current = await this.paymentOf(sessionId)
      if (!current) return "unchanged"
      // Medusa refunds no more than it captured: a back-office capture is recorded first.
      const captured = await this.recordCapture(current, payment)
      const refunded = await this.recordRefunds(
        captured ? ((await this.paymentOf(sessionId)) ?? current) : current,
        payment,
      )
      const uncaptured = await this.recordCancelledCaptures(
        refunded || captured ? ((await this.paymentOf(sessionId)) ?? current) : current,
        payment,
        cancels,
      )
      if (refunded || uncaptured) return "refund_recorded"
      return captured ? "capture_recorded" : "unchanged"
    })
  }

  /**
   * An authorization the gateway voided while Medusa still holds it (the void's answer was lost
   * and Medusa's cancel went on without it, or the back office voided it) is recorded by
   * cancelling Medusa's payment: the provider reads the gateway, finds nothing held, and sends
   * nothing. A void still on its way is its sender's to record. The voids Medusa sent are held
   * by the payment from then on, so the job stops reading them.
   */
  private async recordVoid(sessionId: string, payment: GatewayPayment): Promise<MoneyRecorded> {
    if (!payment.orderId) return "unchanged"
    const voids = (await this.deps.ledger.writesOf(payment.orderId)).filter((write) => write.kind === "void")
    if (voids.some((write) => write.outcome === "requested" || write.outcome === "unknown")) return "unchanged"
    const orphans = voids.filter(isOrphaned)
    const before = await this.paymentOf(sessionId)
    // A capture Medusa holds on a voided order is a cancelled capture: the refunds' to record.
    if (!before || before.captures?.length || (before.canceled_at && !orphans.length)) return "unchanged"
    return this.deps.lockPayment(before.id, async () => {
      const current = await this.paymentOf(sessionId)
      if (!current) return "unchanged"
      if (!current.canceled_at) await this.deps.payments.cancelPayment(current.id)
      for (const write of orphans) await this.deps.ledger.claimWrite(write.id, current.id)
      return current.canceled_at ? "unchanged" : "void_recorded"
    })
  }

  /**
   * The captures a CANCEL undid whose cancel no payment cancel of Medusa's sent (the back office
   * cancelled it, or staff's cancel whose recording failed): Medusa still counts them captured.
   * One Medusa's cancelPayment sent is that cancel's: Medusa cancels the payment itself.
   */
  private async cancelledCaptures(payment: GatewayPayment): Promise<CancelledCapture[]> {
    const undone = (payment.operations ?? []).filter(
      (entry) => entry.moved === "capture" && entry.undoneBy?.kind === "cancel" && entry.operation.operationId,
    )
    if (!undone.length || !payment.orderId) return []
    const medusaCancels = new Set(
      (await this.deps.ledger.writesOf(payment.orderId))
        .filter((write) => write.kind === "cancel_capture" && write.origin !== "staff")
        .map((write) => write.target_ref),
    )
    return undone
      .filter((entry) => !medusaCancels.has(entry.operation.operationId as string))
      .map((entry) => ({
        capture: entry.operation.operationId as string,
        cancel: entry.undoneBy?.operationId as string,
        amountMinor: entry.amountMinor,
      }))
  }

  /** The cancels no Medusa refund names, while Medusa still holds money captured and not refunded. */
  private cancelsMissing(record: PaymentRow, cancels: Array<{ cancel: string }>): Array<{ cancel: string }> {
    const held = MathBN.sub(totalOfRows(record.captures ?? []), totalOfRows(record.refunds ?? []))
    if (record.canceled_at || MathBN.lte(held, 0)) return []
    const named = new Set((record.refunds ?? []).flatMap((refund) => recordedOperationIds(refund.metadata)))
    return cancels.filter((entry) => !named.has(entry.cancel))
  }

  /** Each cancelled capture Medusa lacks, recorded as staff's Cancel capture records one. */
  private async recordCancelledCaptures(
    record: PaymentRow,
    payment: GatewayPayment,
    cancels: CancelledCapture[],
  ): Promise<boolean> {
    let recorded = false
    for (const entry of cancels.filter((cancel) => this.cancelsMissing(record, [cancel]).length)) {
      const note = `Nexi capture ${entry.capture} cancelled at the gateway outside Medusa`
      if (await recordCancelledCapture(this.deps.container, record.id, entry, payment.currency, { note }))
        recorded = true
    }
    return recorded
  }

  private async paymentOf(sessionId: string): Promise<PaymentRow | undefined> {
    const [record] = await this.deps.payments.listPayments(
      { payment_session_id: sessionId },
      {
        relations: ["captures", "refunds"],
        select: ["id", "amount", "raw_amount", "canceled_at", ...MONEY_ROW_FIELDS],
      },
    )
    return record as unknown as PaymentRow | undefined
  }

  private totalMinor(rows: MoneyRow[], currency: string): bigint {
    return BigInt(toMinorUnits(totalOfRows(rows).toString(), currency))
  }

  /** What the gateway captured beyond Medusa's captures (the gateway takes one capture per authorization). */
  private captureMissing(record: PaymentRow, payment: GatewayPayment): bigint {
    if (!payment.captureOperationId || record.canceled_at) return 0n
    return BigInt(payment.capturedMinor) - this.totalMinor(record.captures ?? [], payment.currency)
  }

  /** What the gateway refunded beyond Medusa's refunds (a cancelled capture is no gateway REFUND). */
  private refundMissing(record: PaymentRow, payment: GatewayPayment): bigint {
    const gatewayMinor = BigInt(payment.refundedMinor ?? "0")
    const known = (record.refunds ?? []).filter((refund) => !isCancelledCapture(refund.metadata))
    return gatewayMinor - this.totalMinor(known, payment.currency)
  }

  /**
   * Gateway REFUND operations that Medusa shows through a refund it sent: the ledger hands each
   * write to its Medusa row, one of `rows`. A write whose row Medusa deleted after the gateway
   * made it (its own update failed) is money Medusa does not show.
   */
  private async refundsHeldBy(orderId: string, rows: ReadonlySet<string>): Promise<Set<string>> {
    const held = new Set<string>()
    for (const write of await this.deps.ledger.writesOf(orderId)) {
      if (write.kind === "refund" && write.gateway_operation_id && write.claimed_by && rows.has(write.claimed_by))
        held.add(write.gateway_operation_id)
    }
    return held
  }

  /**
   * A capture Medusa lacks is recorded as Medusa's, for what Medusa lacks. One made in the
   * gateway's back office is recorded without asking the provider to send it (`is_captured`):
   * Medusa's payment data keeps no operation id for it, and a later refund finds the capture in
   * the gateway's order. One Medusa sent itself whose row Medusa dropped (its answer was lost,
   * or Medusa's own update failed after it) goes through the provider, which takes the write
   * over and sends nothing (card-money.ts); one a live Medusa row holds is Medusa's already.
   */
  private async recordCapture(record: PaymentRow, payment: GatewayPayment): Promise<boolean> {
    const missing = this.captureMissing(record, payment)
    const operationId = payment.captureOperationId
    if (missing <= 0n || !operationId || !payment.orderId) return false
    const writes = (await this.deps.ledger.writesOf(payment.orderId)).filter(
      (write) => write.kind === "capture" && write.gateway_operation_id === operationId,
    )
    const rows = new Set((record.captures ?? []).map((capture) => capture.id))
    const dropped = (holder: string | null) =>
      !holder || (holder.startsWith(ROW_SERVICES.capture?.idPrefix as string) && !rows.has(holder))
    if (writes.length && !writes.every((write) => dropped(write.claimed_by))) return false
    await capturePaymentWorkflow(this.deps.container).run({
      // `is_captured` is passed through to the payment module, which then calls no provider.
      input: {
        payment_id: record.id,
        amount: this.captureAmount(record, missing, payment.currency),
        is_captured: writes.length === 0,
      } as { payment_id: string },
    })
    return true
  }

  /**
   * What Medusa records for the `missingMinor` the gateway captured beyond Medusa's captures:
   * what Medusa has left to capture, unrounded, when the gateway captured it rounded (a payment
   * of 10948.8 JPY, authorized and captured whole as 10949); otherwise those minor units. Medusa
   * refuses to capture more than the payment's amount, and for a currency without decimals it
   * compares unrounded amounts: 10949 would never be recorded.
   */
  private captureAmount(record: PaymentRow, missingMinor: bigint, currency: string): string {
    const left = MathBN.sub((record.raw_amount ?? record.amount) as never, totalOfRows(record.captures ?? []))
    if (totalMinorUnits(left.toFixed(), currency) === missingMinor) return left.toFixed()
    return minorToMajorString(missingMinor, currency)
  }

  /**
   * Each gateway REFUND operation is recorded once, as a Medusa refund whose metadata names it
   * (above): the provider sees that metadata and does not send it. An operation is
   * recorded only when no Medusa refund names it, no refund Medusa sent holds it in the ledger,
   * and Medusa's refunds still fall short of the gateway's by at least its amount.
   */
  private async recordRefunds(record: PaymentRow, payment: GatewayPayment): Promise<boolean> {
    if (!payment.orderId) return false
    let missing = this.refundMissing(record, payment)
    if (missing <= 0n) return false
    const named = new Set((record.refunds ?? []).flatMap((refund) => recordedOperationIds(refund.metadata)))
    // A refund write is held by its Medusa refund, or by the payment itself when an order cancel refunded.
    const rows = new Set([record.id, ...(record.refunds ?? []).map((refund) => refund.id)])
    const sentByMedusa = await this.refundsHeldBy(payment.orderId, rows)
    let recorded = false
    for (const operation of (payment.refunds ?? []).filter((refund) => refund.settled)) {
      const amount = BigInt(operation.amountMinor)
      if (named.has(operation.operationId) || sentByMedusa.has(operation.operationId) || amount > missing) continue
      await refundPaymentWorkflow(this.deps.container).run({
        input: {
          payment_id: record.id,
          amount: minorToMajorString(amount, payment.currency),
          note: "Refund made at the Nexi gateway outside Medusa",
          // The one gateway REFUND operation it records (the convention above).
          metadata: { [NEXI_OPERATION_KEY]: operation.operationId },
          // Passed through to the refund record; the workflow's input type does not list it.
        } as { payment_id: string; amount: string; note: string },
      })
      missing -= amount
      recorded = true
    }
    return recorded
  }
}

/** A CAPTURE a CANCEL undid: the gateway counts the cancel as no REFUND. */
export interface CancelledCapture {
  capture: string
  cancel: string
  amountMinor: string
}

/**
 * Records a capture the gateway cancelled as a Medusa refund naming the cancel and the capture:
 * of what the cancel took back, never more than Medusa holds as captured and not refunded (a
 * capture made outside Medusa was never in its totals; the totals unrounded, as Medusa compares
 * them). The provider sees the metadata and sends nothing. The caller holds the payment's lock.
 * Answers the amount recorded, in major units, or undefined when nothing was left to record.
 */
export async function recordCancelledCapture(
  container: MedusaContainer,
  paymentId: string,
  cancelled: CancelledCapture,
  currency: string,
  by: { note: string; createdBy?: string },
): Promise<BigNumber | undefined> {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [record] = await payments.listPayments(
    { id: paymentId },
    { relations: ["captures", "refunds"], select: ["id", ...MONEY_ROW_FIELDS] },
  )
  const row = record as unknown as PaymentRow | undefined
  if (!row) return undefined
  const left = MathBN.sub(totalOfRows(row.captures ?? []), totalOfRows(row.refunds ?? []))
  const amount = BigNumber.min(MathBN.convert(minorToMajorString(cancelled.amountMinor, currency)), left)
  if (amount.isLessThanOrEqualTo(0)) return undefined
  await refundPaymentWorkflow(container).run({
    input: {
      payment_id: paymentId,
      amount: amount.toFixed(),
      created_by: by.createdBy,
      note: by.note,
      metadata: { [NEXI_OPERATION_KEY]: cancelled.cancel, [CANCELLED_CAPTURE_KEY]: cancelled.capture },
      // Passed through to the refund record; the workflow's input type does not list it.
    } as { payment_id: string; amount: string },
  })
  return amount
}

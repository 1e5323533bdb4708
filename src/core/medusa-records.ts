/**
 * Medusa's own payment records, read: the one place that knows Medusa's payment rows, so a
 * change in Medusa's internals is mended here only (the changes are medusa-payments.ts).
 *
 * Medusa does not pass the amount of a capture to capturePayment, nor the details of a refund or
 * session beyond their ids. The provider lives in the payment module's container, whose record
 * services know them. Every read fails closed: a record that cannot be read is an error naming
 * it, never a default. A capture amount that falls back to the whole payment captures too much;
 * refund metadata that reads as empty sends a back-office refund a second time.
 */
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { MoneyWrite } from "../modules/nexi-ledger/types"

interface RecordService {
  retrieve(id: string, config?: Record<string, unknown>): Promise<Record<string, unknown>>
}

export interface SessionRecord {
  id: string
  status: string
  data: Record<string, unknown>
  amount: unknown
  currency_code: string
  created_at?: Date | string
  authorized_at?: Date | string | null
}

/** The record service of the Medusa row each kind of write is sent for, and the prefix of that row's ids. */
export const ROW_SERVICES: Partial<Record<MoneyWrite["kind"], { service: string; idPrefix: string }>> = {
  capture: { service: "captureService", idPrefix: "capt_" },
  refund: { service: "refundService", idPrefix: "ref_" },
  apm_refund: { service: "refundService", idPrefix: "ref_" },
}

export class PaymentRecords {
  constructor(private readonly container: Record<string, unknown>) {}

  private async read(serviceName: string, what: string, id: string | undefined, config: Record<string, unknown>) {
    if (!id) throw unreadable(what, "Medusa passed no id for it")
    let service: RecordService | undefined
    try {
      service = this.container[serviceName] as RecordService | undefined
    } catch {
      service = undefined
    }
    if (!service) throw unreadable(`${what} ${id}`, `the payment module has no ${serviceName}`)
    try {
      return await service.retrieve(id, config)
    } catch (error) {
      if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_FOUND) return undefined
      throw unreadable(`${what} ${id}`, (error as Error).message)
    }
  }

  /**
   * The capture Medusa just created as money by totals reads it, in one read: its amount and
   * the payment's captures before it (all but it), in major units.
   */
  async captureTotals(captureId: string | undefined): Promise<{ amount: string; capturedBefore: string }> {
    const capture = await this.read("captureService", "the Medusa capture", captureId, {
      relations: ["payment", "payment.captures"],
    })
    if (!capture) throw unreadable(`the Medusa capture ${captureId}`, "it does not exist")
    return {
      amount: MathBN.convert((capture.raw_amount ?? capture.amount) as never).toString(),
      capturedBefore: sumOf(capture.payment as PaymentRows, "captures", `Medusa capture ${captureId}`, captureId),
    }
  }

  /** Sum of the payment's refunds before this one (all but it), in major units. */
  async refundedBefore(refundId: string | undefined): Promise<string> {
    return sumOf(await this.paymentOfRefund(refundId, ["refunds"]), "refunds", `Medusa refund ${refundId}`, refundId)
  }

  /**
   * The refund's payment as money by totals reads it, in one read: its refunds before this one
   * and its captures, in major units.
   */
  async refundTotals(refundId: string | undefined): Promise<{ refundedBefore: string; captured: string }> {
    const payment = await this.paymentOfRefund(refundId, ["refunds", "captures"])
    return {
      refundedBefore: sumOf(payment, "refunds", `Medusa refund ${refundId}`, refundId),
      captured: sumOf(payment, "captures", `Medusa refund ${refundId}`),
    }
  }

  private async paymentOfRefund(refundId: string | undefined, rows: string[]) {
    const record = await this.read("refundService", "the Medusa refund", refundId, {
      relations: ["payment", ...rows.map((name) => `payment.${name}`)],
    })
    return record?.payment as PaymentRows | undefined
  }

  /** Metadata of the refund Medusa just created (refunds recorded from the gateway carry its operation id). */
  async refundMetadata(refundId: string | undefined): Promise<Record<string, unknown>> {
    const refund = await this.read("refundService", "the Medusa refund", refundId, { select: ["id", "metadata"] })
    if (!refund) throw unreadable(`the Medusa refund ${refundId}`, "it does not exist")
    return (refund.metadata as Record<string, unknown> | null | undefined) ?? {}
  }

  /**
   * Whether Medusa still holds the capture or refund row a write was sent for, read by the
   * id the write carries. Medusa deletes its row when the provider throws, but a process
   * killed mid-call leaves it standing: only this read tells the two apart. Other kinds of
   * write have no row of their own (false). A failed read throws.
   */
  async holdsRowOf(write: Pick<MoneyWrite, "kind" | "medusa_ref">): Promise<boolean> {
    const rows = ROW_SERVICES[write.kind]
    if (!rows || !write.medusa_ref) return false
    return (
      (await this.read(rows.service, `the Medusa ${write.kind}`, write.medusa_ref, { select: ["id"] })) !== undefined
    )
  }

  /**
   * Whether `holder` is a capture or refund row of Medusa's that Medusa deleted since (its own
   * update failed after the provider answered). A write is also held by a payment (an order
   * cancel's refund, a void the job recorded) or by the gateway's cancel that undid it, which is
   * never such a row: false.
   */
  async rowDeleted(kind: MoneyWrite["kind"], holder: string): Promise<boolean> {
    if (!ROW_SERVICES[kind]?.idPrefix || !holder.startsWith(ROW_SERVICES[kind].idPrefix)) return false
    return !(await this.holdsRowOf({ kind, medusa_ref: holder }))
  }

  /** The session, or undefined when Medusa holds none with this id (deleted). A failed read throws. */
  async session(sessionId: string): Promise<SessionRecord | undefined> {
    const session = await this.read("paymentSessionService", "the payment session", sessionId, {
      select: ["id", "status", "data", "amount", "raw_amount", "currency_code", "created_at", "authorized_at"],
    })
    return session as SessionRecord | undefined
  }
}

type PaymentRows = Record<string, Array<Record<string, unknown>> | undefined>

/** The sum of the payment's rows of one kind, but `leaveOut`, in major units; rows that were not read fail closed. */
function sumOf(payment: PaymentRows | undefined, rows: "captures" | "refunds", of: string, leaveOut?: string): string {
  const siblings = payment?.[rows]
  if (!siblings) throw unreadable(`the ${rows} of the payment of ${of}`, "they were not found")
  return totalOfRows(siblings.filter((row) => leaveOut === undefined || row.id !== leaveOut)).toString()
}

/** What Medusa's capture or refund rows add up to, in major units, unrounded as Medusa keeps them. */
export function totalOfRows(rows: Array<{ amount?: unknown; raw_amount?: unknown }>) {
  return rows.reduce((total, row) => MathBN.add(total, (row.raw_amount ?? row.amount) as never), MathBN.convert(0))
}

function unreadable(what: string, why: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `${what} could not be read (${why}); nothing was sent to the gateway.`,
  )
}

// The one convention for Medusa refunds that record money the gateway moved already, and so are
// never sent to it: their metadata names the gateway operations they record. Written when the
// back-office recording (MedusaChanges, below: each gateway operation once) and staff cancelling a
// capture (src/staff/payment-actions.ts) record one; read by them and by the card's and mobile
// payment's refunds (card-money.ts, apm-sessions.ts).

/** The gateway operation (or operations, comma-separated, as earlier versions wrote) a refund records. */
export const NEXI_OPERATION_KEY = "nexi_operation_id"
/** A staff capture cancel, recorded as a refund: the gateway counts it as no REFUND. */
export const CANCELLED_CAPTURE_KEY = "nexi_cancelled_capture_id"

type Metadata = Record<string, unknown> | null | undefined

/** The gateway operations the refund records; none for a refund Medusa asked the provider to send. */
export function recordedOperationIds(metadata: Metadata): string[] {
  const recorded = metadata?.[NEXI_OPERATION_KEY]
  return recorded ? String(recorded).split(",").filter(Boolean) : []
}

export function isCancelledCapture(metadata: Metadata): boolean {
  return Boolean(metadata?.[CANCELLED_CAPTURE_KEY])
}

export type MoneyRow = { id: string; amount: unknown; raw_amount?: unknown; metadata?: Record<string, unknown> | null }

/** A payment's captures and refunds as money by totals reads them: unrounded amounts, and the refunds' metadata. */
export const MONEY_ROW_FIELDS = [
  "captures.id",
  "captures.amount",
  "captures.raw_amount",
  "refunds.id",
  "refunds.amount",
  "refunds.raw_amount",
  "refunds.metadata",
]

/**
 * The rest of Medusa's bookkeeping for a capture or refund whose workflow died half-way.
 *
 * Medusa's payment module saves its capture or refund row, then calls the provider, and only
 * after the answer updates the payment collection's totals (and a payment's captured_at); its
 * workflow then adds the order's transaction and, for a staff refund, the order's credit line. A
 * store killed while the provider's call was out keeps the row and loses the rest: the order
 * shows nothing refunded while the gateway refunded, and staff refund again. The sync finishes
 * what the workflow left, as its own steps would have, once the gateway holds the money:
 *
 * - a row is finished only when the ledger holds its write as executed, and the write is older
 *   than STALE_REQUEST_MS (the job settles a write cut off mid-call once it is that old): a
 *   live workflow finishes its steps right after its provider call, which is over by then, so
 *   the sync and a live workflow never finish the same row;
 * - a row is finished when the order's transactions naming it do not add up to its amount: it has
 *   none (Medusa's own step adds one per row, keyed by the row's id, so this is the mark of a
 *   workflow that died before it), or one for another amount. Medusa's capture and refund
 *   workflows add a transaction for every row of the payment that has none, each for the amount
 *   of the call they run for: a later call (staff's refund, or the sync recording a back-office
 *   refund) gives the row of a workflow that died a transaction of the later call's amount,
 *   which the sync deletes before it adds the row's own;
 * - under the payment's lock, with the transactions read again: copies of a notification, the
 *   job and a staff Sync finish a row once.
 */
import type { IOrderModuleService, IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { createOrderCreditLinesWorkflow } from "@medusajs/medusa/core-flows"
import type { MoneyWrite, PaymentLedger } from "../modules/nexi-ledger/types"
import { STALE_REQUEST_MS } from "./send-once"

type Row = {
  id: string
  amount: unknown
  raw_amount?: unknown
  created_at: Date | string
  refund_reason?: { label?: string; code?: string } | null
}
type PaymentRecord = {
  id: string
  amount: unknown
  currency_code: string
  captured_at?: Date | string | null
  payment_collection_id: string
  captures: Row[]
  refunds: Row[]
}
type Kind = "capture" | "refund"
type KindRow = { kind: Kind; row: Row }
/** A row to finish, with the transactions that name it for another amount (deleted first). */
type Unfinished = KindRow & { transactionIds: string[] }

/** Whether a Medusa row stands for money the gateway holds: the rows each kind of write is sent for. */
const WRITE_KINDS_OF: Record<Kind, ReadonlyArray<MoneyWrite["kind"]>> = {
  capture: ["capture"],
  refund: ["refund", "apm_refund"],
}

export interface BookkeepingDeps {
  container: MedusaContainer
  payments: IPaymentModuleService
  ledger: Pick<PaymentLedger, "writesOf">
  lockPayment: <T>(paymentId: string, job: () => Promise<T>) => Promise<T>
}

export class MedusaBookkeeping {
  constructor(private readonly deps: BookkeepingDeps) {}

  /**
   * Finishes the bookkeeping of the session's payment rows whose workflow died; how many rows it
   * finished. `gatewayRef` is the gateway order or transaction whose writes the rows were sent as.
   */
  async finish(sessionId: string, gatewayRef: string, now = new Date()): Promise<number> {
    // Most syncs find no write old enough: one ledger read, and Medusa is not read at all.
    const executed = await this.executedLongAgo(gatewayRef, now)
    if (!executed.size) return 0
    const payment = await this.paymentOf(sessionId)
    const orderId = payment && (await this.orderOf(payment.payment_collection_id))
    if (!payment || !orderId) return 0
    // A row that took an old write over (Medusa called again with a new id) is as young as its
    // workflow, which may be finishing it now: it waits until it is as old as the write.
    const backed = rowsOf(payment).filter(
      ({ kind, row }) =>
        isOlderThanStale(row.created_at, now) &&
        WRITE_KINDS_OF[kind].some((writeKind) => executed.has(`${writeKind}:${row.id}`)),
    )
    if (!(await this.unfinished(orderId, backed)).length) return 0
    return this.deps.lockPayment(payment.id, async () => {
      const rows = await this.unfinished(orderId, backed)
      if (!rows.length) return 0
      await this.finishPayment(payment)
      for (const row of rows) await this.finishRow(orderId, payment.payment_collection_id, payment.currency_code, row)
      return rows.length
    })
  }

  /** The Medusa rows (`kind:row id`) the gateway's writes were sent for, executed long enough ago that no live workflow is finishing them. */
  private async executedLongAgo(gatewayRef: string, now: Date): Promise<Set<string>> {
    const rows = new Set<string>()
    for (const write of await this.deps.ledger.writesOf(gatewayRef)) {
      if (write.outcome !== "executed" || !isOlderThanStale(write.created_at, now)) continue
      for (const ref of [write.medusa_ref, write.claimed_by]) if (ref) rows.add(`${write.kind}:${ref}`)
    }
    return rows
  }

  private async paymentOf(sessionId: string): Promise<PaymentRecord | undefined> {
    const [record] = await this.deps.payments.listPayments(
      { payment_session_id: sessionId },
      {
        relations: ["captures", "refunds", "refunds.refund_reason"],
        select: [
          "id",
          "amount",
          "currency_code",
          "captured_at",
          "payment_collection_id",
          ...["captures", "refunds"].flatMap((rows) =>
            ["id", "amount", "raw_amount", "created_at"].map((f) => `${rows}.${f}`),
          ),
          "refunds.refund_reason.label",
          "refunds.refund_reason.code",
        ],
      },
    )
    return record as unknown as PaymentRecord | undefined
  }

  /** The order the payment collection pays for; none for a cart not yet completed. */
  private async orderOf(collectionId: string): Promise<string | undefined> {
    const query = this.deps.container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order_payment_collection",
      fields: ["order_id"],
      filters: { payment_collection_id: collectionId },
    })
    return (data[0] as { order_id?: string } | undefined)?.order_id
  }

  /** The rows among `rows` whose transactions on the order do not add up to them (see the header). */
  private async unfinished(orderId: string, rows: KindRow[]): Promise<Unfinished[]> {
    if (!rows.length) return []
    const transactions = await this.orders().listOrderTransactions(
      { order_id: orderId, reference_id: rows.map(({ row }) => row.id) },
      { select: ["id", "reference_id", "amount", "raw_amount"] },
    )
    return rows.flatMap(({ kind, row }) => {
      const naming = transactions.filter((transaction) => transaction.reference_id === row.id)
      const total = naming.reduce((sum, transaction) => MathBN.add(sum, amountOf(transaction)), MathBN.convert(0))
      if (MathBN.eq(total, transactionAmount(kind, row))) return []
      return [{ kind, row, transactionIds: naming.map((transaction) => transaction.id) }]
    })
  }

  /**
   * The payment module's own update after a provider's answer: the collection's totals, read
   * again from every row (Medusa's private method, the one it calls itself), and captured_at
   * once the captures reach the payment's amount.
   */
  private async finishPayment(payment: PaymentRecord): Promise<void> {
    const module = this.deps.payments as unknown as {
      maybeUpdatePaymentCollection_?: (collectionId: string) => Promise<void>
    }
    if (typeof module.maybeUpdatePaymentCollection_ !== "function")
      throw new Error(
        "this Medusa's payment module has no maybeUpdatePaymentCollection_; the collection's totals were left",
      )
    await module.maybeUpdatePaymentCollection_(payment.payment_collection_id)
    const captured = payment.captures.reduce((total, row) => MathBN.add(total, amountOf(row)), MathBN.convert(0))
    if (!payment.captured_at && MathBN.gte(captured, amountOf(payment)))
      await this.deps.payments.updatePayment({ id: payment.id, captured_at: new Date() } as never)
  }

  /**
   * The order's transaction for the row, as Medusa's capture and refund workflows add it; for a
   * refund, then the credit line Medusa's staff refund adds for what the customer had not
   * overpaid (none on a cancelled order: its refunds come from the cancel, which adds none).
   */
  private async finishRow(orderId: string, collectionId: string, currency: string, unfinished: Unfinished) {
    const { kind, row, transactionIds } = unfinished
    // Deleting them takes them out of the order's summary, as adding them put them in.
    if (transactionIds.length) await this.orders().deleteOrderTransactions(transactionIds)
    const amount = amountOf(row)
    // Read before the transaction, as Medusa's refund reads the order before it refunds.
    const credit = kind === "refund" ? await this.refundCredit(orderId, amount) : undefined
    await this.orders().addOrderTransactions({
      order_id: orderId,
      amount: transactionAmount(kind, row),
      currency_code: currency,
      reference: kind,
      reference_id: row.id,
    })
    if (!credit) return
    // The credit line Medusa's refund adds, named as it names it: by the refund's reason, or the collection.
    const creditLine = {
      amount: credit,
      reference: row.refund_reason?.label ?? "payment_collection",
      reference_id: row.refund_reason?.code ?? collectionId,
    }
    await createOrderCreditLinesWorkflow(this.deps.container).run({
      input: { id: orderId, credit_lines: [creditLine] },
    })
  }

  /** What of a refund is credited to the order: all of it, less what the order had been overpaid. */
  private async refundCredit(orderId: string, amount: ReturnType<typeof MathBN.convert>) {
    const order = await this.orders().retrieveOrder(orderId, { select: ["id", "status", "summary"] })
    if (order.status === "canceled") return undefined
    const summary = order.summary as { raw_pending_difference?: unknown; pending_difference?: unknown } | undefined
    const pending = MathBN.convert((summary?.raw_pending_difference ?? summary?.pending_difference ?? 0) as never)
    const credit = MathBN.lt(pending, 0) ? MathBN.sub(amount, MathBN.mult(pending, -1)) : amount
    return MathBN.gt(credit, 0) ? credit : undefined
  }

  private orders() {
    return this.deps.container.resolve<IOrderModuleService>(Modules.ORDER)
  }
}

function isOlderThanStale(time: Date | string, now: Date): boolean {
  return now.getTime() - new Date(time).getTime() > STALE_REQUEST_MS
}

function rowsOf(payment: PaymentRecord): KindRow[] {
  return [
    ...payment.captures.map((row) => ({ kind: "capture" as const, row })),
    ...payment.refunds.map((row) => ({ kind: "refund" as const, row })),
  ]
}

function amountOf(row: { amount: unknown; raw_amount?: unknown }) {
  return MathBN.convert((row.raw_amount ?? row.amount) as never)
}

/** The order transaction of a row, as Medusa's workflows add it: a refund's negative. */
function transactionAmount(kind: Kind, row: Row) {
  return kind === "refund" ? MathBN.mult(amountOf(row), -1) : amountOf(row)
}

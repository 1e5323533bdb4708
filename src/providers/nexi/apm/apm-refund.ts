/**
 * One Medusa refund of a mobile payment, made once at the service whatever happens on the
 * way. When a refund's answer is lost, Medusa rolls its refund back and the merchant tries
 * again, which is a new Medusa refund with a new id and so a new idempotency key. The first
 * refund then lives on in the ledger: this refund first learns its outcome and, if it was
 * made, takes it over (claims it) and sends only what remains.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { MoneyWrite, NewWrite, PaymentLedger } from "../../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../../money/amount"
import { idempotencyUuid } from "../shared/idempotency"
import type { ApmWrites, RequestOfWrite } from "./apm-writes"
import { type OriginalPayment, type RefundTotals, refundRequest, refundsBefore, type Sender } from "./follow-up-requests"

const ACTION = "refund the payment"

export interface RefundOrder {
  writes: ApmWrites
  ledger: PaymentLedger
  sender: Sender
  original: OriginalPayment
  /** Medusa's refund id: the key of this refund, and the claimant of the refunds it takes over. */
  refundId: string
  refundMinor: bigint
  /** What the payment data counts as refunded already. */
  refunded: RefundTotals
  requestOf: RequestOfWrite
}

export interface RefundDone {
  /** The service's refund transactions that make up this refund. */
  transactionIds: string[]
  vatMinor: bigint
}

export async function refundOnce(order: RefundOrder): Promise<RefundDone> {
  const { original, refundId, refundMinor } = order
  const key = idempotencyUuid(refundId)
  const writes = await settleEarlier(order, key)
  const { before, vatOf } = refundsBefore(writes, key, original.amount, order.refunded)
  const adopted = await adopt(order, writes, key)
  const adoptedMinor = adopted.reduce((sum, write) => sum + BigInt(write.amount_minor), 0n)
  const done: RefundDone = {
    transactionIds: adopted.flatMap((write) => (write.gateway_operation_id ? [write.gateway_operation_id] : [])),
    vatMinor: adopted.reduce((sum, write) => sum + (vatOf.get(write.id) ?? 0n), 0n),
  }
  const remainder = refundMinor - adoptedMinor
  if (remainder <= 0n) return done
  const request = refundRequest(order.sender, original, remainder, before)
  const currency = original.amount.currencyCode
  const write = {
    kind: "apm_refund" as const,
    idempotency_key: key,
    gateway_ref: original.transactionId,
    target_ref: original.transactionId,
    amount_minor: remainder.toString(),
    currency,
    medusa_ref: refundId,
  }
  try {
    const label = `refund of ${minorToMajorString(remainder, currency)} ${currency}`
    const transactionId = await order.writes.send({ write, request, label, action: ACTION })
    await holdOwn(order, write)
    return { transactionIds: [...done.transactionIds, transactionId], vatMinor: done.vatMinor + BigInt(request.purchaseAmount.vatAmount) }
  } catch (error) {
    await releaseClaims(order, adopted)
    throw error
  }
}

/** The transaction's writes, none of them (but this refund's own) of unknown outcome or on its way. */
async function settleEarlier(order: RefundOrder, key: string): Promise<MoneyWrite[]> {
  let writes: MoneyWrite[]
  try {
    writes = await order.writes.settleUnsettled(order.original.transactionId, order.requestOf, key)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${ACTION}: an earlier refund or reversal of this payment has an unknown outcome, and it could not be settled now (${(error as Error).message}). Nothing was sent; try again in a few minutes.`,
    )
  }
  if (writes.some((write) => write.idempotency_key !== key && order.writes.isInFlight(write))) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not ${ACTION}: another refund or reversal of this payment is being sent right now. Nothing was sent; try again in a minute.`,
    )
  }
  return writes
}

/**
 * Refunds the service made that no Medusa refund holds, taken over up to this refund's
 * amount; first those an earlier try of this same refund took already. A refund the scheme
 * rejected moved no money and is never taken over.
 */
async function adopt(order: RefundOrder, writes: MoneyWrite[], key: string): Promise<MoneyWrite[]> {
  const candidates = writes.filter(
    (write) => write.kind === "apm_refund" && write.outcome === "executed" && write.follow_state !== "rejected" && write.idempotency_key !== key,
  )
  const adopted = candidates.filter((write) => write.claimed_by === order.refundId)
  let total = adopted.reduce((sum, write) => sum + BigInt(write.amount_minor), 0n)
  for (const write of candidates) {
    const amount = BigInt(write.amount_minor)
    if (write.claimed_by !== null || total + amount > order.refundMinor) continue
    if (!(await order.ledger.claimWrite(write.id, order.refundId))) continue
    adopted.push(write)
    total += amount
  }
  return adopted
}

/**
 * The refund's own write, when an earlier try of this same refund sent it and the job
 * settled it since, is executed but unclaimed (or claimed by a later refund that took it
 * over). Unclaimed, this refund claims it, or a later one would count it a second time;
 * held by another, Medusa already records that money there and must not record it again.
 */
async function holdOwn(order: RefundOrder, write: NewWrite): Promise<void> {
  const own = await order.ledger.requestWrite(write)
  if (own.claimed_by === order.refundId) return
  if (own.claimed_by === null && (await order.ledger.claimWrite(own.id, order.refundId))) return
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not ${ACTION}: its refund transaction ${own.gateway_operation_id} is already recorded in Medusa as part of another refund. Nothing more was sent.`,
  )
}

/**
 * Medusa rolls this refund back when it fails, so what it took over must be free again for
 * the next refund; otherwise that one would send the money a second time.
 */
async function releaseClaims(order: RefundOrder, adopted: MoneyWrite[]): Promise<void> {
  for (const write of adopted) {
    try {
      await order.ledger.settleWrite(write.idempotency_key, { claimed_by: null })
    } catch (error) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${ACTION}, and the refund transaction ${write.gateway_operation_id} it had taken over could not be freed in the Nexi ledger (${(error as Error).message}). Do not refund again before support has set claimed_by of ledger write ${write.id} back to empty.`,
      )
    }
  }
}

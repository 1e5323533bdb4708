/**
 * One Medusa refund of a mobile payment, made once at the service whatever happens on the
 * way. When a refund's answer is lost, Medusa rolls its refund back and the merchant tries
 * again, which is a new Medusa refund with a new id and so a new idempotency key. The first
 * refund then lives on in the ledger: this refund first learns its outcome and matches it to
 * its Medusa row by id (core/send-once.ts); only if that row is gone does it take the
 * refund over (claims it) and send only what remains.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { MoneyWrite, NewWrite } from "../../modules/nexi-ledger/types"
import { minorMoneyText } from "../../money/amount"
import { idempotencyUuid } from "../idempotency"
import { claimOrphans, releaseClaims, totalMinor } from "../send-once"
import { followUpRequest, type OriginalPayment, type RefundTotals, refundsBefore } from "./apm-requests"
import type { ApmWrites } from "./apm-writes"

const ACTION = "refund the payment"

export interface RefundOrder {
  /** The payment's writes, with the ledger and Medusa's refund rows they are matched to. */
  writes: ApmWrites
  original: OriginalPayment
  /** Medusa's refund id: the key of this refund, and the claimant of the refunds it takes over. */
  refundId: string
  refundMinor: bigint
  /** What the payment data counts as refunded already. */
  refunded: RefundTotals
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
  // Refunds the service made whose Medusa refund is gone, taken over up to this refund's amount.
  const { ledger, rows } = order.writes.deps
  const claimed = await claimOrphans({ ledger, rows, action: ACTION }, writes, {
    kind: "apm_refund",
    amountMinor: refundMinor,
    claimant: refundId,
    ownKey: key,
  })
  const claimedMinor = totalMinor(claimed)
  const done: RefundDone = {
    transactionIds: claimed.flatMap((write) => (write.gateway_operation_id ? [write.gateway_operation_id] : [])),
    vatMinor: claimed.reduce((sum, write) => sum + (vatOf.get(write.id) ?? 0n), 0n),
  }
  const remainder = refundMinor - claimedMinor
  if (remainder <= 0n) return done
  const request = followUpRequest(order.writes.sender, original, { refundMinor: remainder, before })
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
    const label = `refund of ${minorMoneyText(remainder, currency)}`
    const transactionId = await order.writes.send({ write, request, label, action: ACTION })
    await holdOwn(order, write)
    return {
      transactionIds: [...done.transactionIds, transactionId],
      vatMinor: done.vatMinor + BigInt(request.purchaseAmount.vatAmount),
    }
  } catch (error) {
    await releaseClaims(ledger, claimed, ACTION)
    throw error
  }
}

/** The transaction's writes, none of them (but this refund's own) of unknown outcome or on its way. */
async function settleEarlier(order: RefundOrder, key: string): Promise<MoneyWrite[]> {
  let writes: MoneyWrite[]
  try {
    const requestOf = order.writes.requestOf(order.original, order.refunded)
    writes = await order.writes.settleUnsettled(order.original.transactionId, requestOf, {
      exceptKey: key,
      action: ACTION,
    })
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
 * The refund's own write, when an earlier try of this same refund sent it and the job
 * settled it since, is executed but unclaimed (or claimed by a later refund that took it
 * over). Unclaimed, this refund claims it, or a later one would count it a second time;
 * held by another, Medusa already records that money there and must not record it again.
 */
async function holdOwn(order: RefundOrder, write: NewWrite): Promise<void> {
  const { ledger } = order.writes.deps
  const own = await ledger.requestWrite(write)
  if (own.claimed_by === order.refundId) return
  if (own.claimed_by === null && (await ledger.claimWrite(own.id, order.refundId))) return
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not ${ACTION}: its refund transaction ${own.gateway_operation_id} is already recorded in Medusa as part of another refund. Nothing more was sent.`,
  )
}

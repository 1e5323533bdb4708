/**
 * Money on a gateway order that no live session owns any more: the shopper paid on a hosted
 * page the cart had already replaced (an old browser tab), or on one whose session Medusa
 * deleted. No order will ever capture it, so it goes back at once: an authorization is
 * voided, a capture (IMPLICIT) refunded. The ledger keeps the release for staff to see.
 */
import type { Logger } from "@medusajs/framework/types"
import type { OrderDetails } from "../../gateway/schemas"
import type { PaymentAttempt } from "../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../money/amount"
import { idempotencyUuid } from "../idempotency"
import { readCardOrder } from "./card-order"
import { type CardWriteContext, requestOf, sendCardWrite } from "./card-writes"

export type ReleaseOutcome = "voided" | "refunded" | "nothing_paid"

/** What the gateway's record of a released payment's void or refund says. */
const DESCRIPTION = "Release of a payment no order owns"

export async function releaseUnowned(
  context: CardWriteContext,
  attempt: PaymentAttempt,
  details: OrderDetails,
  why: string,
  logger?: Logger,
): Promise<ReleaseOutcome> {
  const state = readCardOrder(details)
  const orderId = attempt.gateway_ref
  const currency = details.orderStatus.order.currency ?? attempt.currency
  const base = { gateway_ref: orderId, currency, origin: "release" as const, medusa_ref: attempt.session_id }
  let outcome: ReleaseOutcome = "nothing_paid"
  let amountMinor = "0"
  if (state.status === "authorized" && state.paymentOperationId) {
    amountMinor = state.authorizedMinor
    const write = {
      ...base,
      kind: "void" as const,
      idempotency_key: idempotencyUuid(`${orderId}:release`),
      target_ref: state.paymentOperationId,
      amount_minor: amountMinor,
    }
    await sendCardWrite(context, write, requestOf(context.gateway, write, DESCRIPTION))
    outcome = "voided"
  } else if (state.status === "captured" && state.captureOperationId) {
    const left = BigInt(state.refundableMinor)
    amountMinor = left.toString()
    if (left > 0n) {
      const write = {
        ...base,
        kind: "refund" as const,
        idempotency_key: idempotencyUuid(`${orderId}:release-refund`),
        target_ref: state.captureOperationId,
        amount_minor: amountMinor,
      }
      await sendCardWrite(context, write, requestOf(context.gateway, write, DESCRIPTION))
    }
    outcome = "refunded"
  }
  if (outcome === "nothing_paid") return outcome
  const amount = `${minorToMajorString(amountMinor, currency)} ${currency}`
  const note = `Payment of ${amount} on ${why}; ${outcome} automatically.`
  await context.ledger.updateAttempt(orderId, { state: "released", released_at: new Date(), next_check_at: null, note })
  logger?.error(
    `nexi: payment on ${why}, ${outcome}: gateway order ${orderId}, cart ${attempt.cart_id ?? "unknown"}, ${amount}`,
  )
  return outcome
}

/**
 * The payments the plugin released by itself (voided or refunded at the gateway because
 * their money arrived for a cart that no longer wanted it), newest first, each with the
 * Medusa order its cart became so staff can tell the shopper which order it was about.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { apmMethodOfProvider } from "../core/provider-ids"
import { ledgerOf } from "../core/store-entries"
import type { PaymentAttempt } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"
import type { NexiReleasedPayment } from "./contract"
import { ordersOfCarts } from "./order-carts"

export function releasedPaymentView(attempt: PaymentAttempt, orderId: string | null): NexiReleasedPayment {
  const currency = attempt.currency.toUpperCase()
  return {
    gateway_ref: attempt.gateway_ref,
    kind: apmMethodOfProvider(attempt.provider_identifier) ? "mobile" : "card",
    provider_identifier: attempt.provider_identifier,
    cart_id: attempt.cart_id,
    order_id: orderId,
    amount: minorToMajorString(attempt.amount_minor, currency),
    currency,
    released_at: attempt.released_at ? new Date(attempt.released_at).toISOString() : null,
    note: attempt.note,
  }
}

/** Of the given carts only, when given (an order page asks for its own cart's). */
export async function releasedPayments(
  container: MedusaContainer,
  filter: { limit: number; cartIds?: string[] },
): Promise<NexiReleasedPayment[]> {
  const attempts = await ledgerOf(container).releasedAttempts(filter)
  const cartIds = attempts.flatMap((attempt) => (attempt.cart_id ? [attempt.cart_id] : []))
  const orders = await ordersOfCarts(container, cartIds)
  return attempts.map((attempt) =>
    releasedPaymentView(attempt, (attempt.cart_id && orders.get(attempt.cart_id)) || null),
  )
}

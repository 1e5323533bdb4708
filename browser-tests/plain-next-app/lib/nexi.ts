"use server"
import { cardSessionData, hostedPageOf, type PaymentOutcome, resolveReturn } from "medusa-payment-nexi-storefront"
import { retrieveCart } from "./cart"
import { sdk } from "./config"
import { getAuthHeaders, removeCartId } from "./cookies"

/**
 * "Pay with card": a new card session every time (a declined or cancelled one cannot be paid
 * again), and the hosted page to send the browser to. Answered, not thrown: Next.js hides a
 * server action's error message in production.
 */
export async function startCardPayment(providerId: string): Promise<{ url: string } | { error: string }> {
  try {
    const cart = await retrieveCart()
    if (!cart) return { error: "Your cart is no longer there. Add the items again." }
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(
      cart,
      { provider_id: providerId, data: cardSessionData() },
      {},
      await getAuthHeaders(),
    )
    const session = payment_collection.payment_sessions?.find((candidate) => candidate.provider_id === providerId)
    return { url: hostedPageOf(session) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/** The result page's work: completes the cart, or says why not. An order means the cart is gone: forget it. */
export async function resolveNexiReturn(cartId: string): Promise<PaymentOutcome> {
  const outcome = await resolveReturn(sdk.client, { cartId }, { headers: await getAuthHeaders() })
  if (outcome.state === "order_placed") await removeCartId()
  return outcome
}

"use server"
import { sdk } from "@lib/config"
import { getAuthHeaders, getCacheTag, removeCartId } from "@lib/data/cookies"
import {
  type CardFieldsNextStep,
  deleteSavedCard,
  finalizeCardPayment,
  getPaymentLinkOutcome,
  hostedPageOf,
  listSavedCards,
  type PaymentLinkOutcome,
  type PaymentOutcome,
  readPaymentOutcome,
  resolveReturn,
  retrieveNexiSession,
  type SavedCard,
} from "medusa-payment-nexi-storefront"
import { revalidateTag } from "next/cache"

/**
 * The hosted page of the cart's card session, read when the shopper clicks "Place order".
 * Answered, not thrown: Next.js hides a server action's error message in production.
 */
export async function nexiHostedPage(cartId: string): Promise<{ url: string } | { error: string }> {
  try {
    return { url: hostedPageOf(await retrieveNexiSession(sdk.client, cartId, { headers: await getAuthHeaders() })) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/**
 * Any outcome changed the cart on the store's side: revalidate the starter's cached cart, or its
 * payment step still sees a declined or cancelled session as pending, does not start a new
 * one, and "Pay with card" reopens the finished hosted page. An order means the cart is gone:
 * forget it, as the starter's placeOrder() does.
 */
async function settle(outcome: PaymentOutcome): Promise<PaymentOutcome> {
  if (outcome.state === "pending") return outcome
  revalidateTag(await getCacheTag("carts"))
  if (outcome.state === "order_placed") {
    revalidateTag(await getCacheTag("orders"))
    await removeCartId()
  }
  return outcome
}

/** The result page's work: completes the cart, or says why not. */
export async function resolveNexiReturn(cartId: string): Promise<PaymentOutcome> {
  return settle(await resolveReturn(sdk.client, { cartId }, { headers: await getAuthHeaders() }))
}

/**
 * The card fields' "Pay" (XPay Build), once they confirmed the card: the store pays with it
 * once and says what the page does next. A declined card changed the cart's session: revalidate.
 */
export async function finalizeNexiCardPayment(cartId: string, sessionId: string): Promise<CardFieldsNextStep> {
  const next = await finalizeCardPayment(sdk.client, { cartId, sessionId }, { headers: await getAuthHeaders() })
  if (next.next === "declined") revalidateTag(await getCacheTag("carts"))
  return next
}

/** The mobile payment's wait: the status route, which completes the cart once the shopper approves. */
export async function nexiPaymentOutcome(cartId: string, sessionId: string): Promise<PaymentOutcome> {
  return settle(await readPaymentOutcome(sdk.client, { cartId, sessionId }, { headers: await getAuthHeaders() }))
}

/** The page a payment link returns to: what became of the link, for a guest too. Answered, not thrown, as above. */
export async function nexiPaymentLinkOutcome(
  orderId: string,
  sessionId: string,
): Promise<PaymentLinkOutcome | { error: string }> {
  try {
    return await getPaymentLinkOutcome(sdk.client, { orderId, sessionId }, { headers: await getAuthHeaders() })
  } catch (error) {
    return { error: (error as Error).message }
  }
}

export async function listMyNexiCards(): Promise<SavedCard[]> {
  return listSavedCards(sdk.client, { headers: await getAuthHeaders() })
}

export async function deleteMyNexiCard(id: string): Promise<void> {
  await deleteSavedCard(sdk.client, id, { headers: await getAuthHeaders() })
}

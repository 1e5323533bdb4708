/**
 * The cart's Nexi payment session and the hosted page it pays on. Read the page when the
 * shopper clicks to pay, not when the session was created: if the cart's amount changed in
 * between, Medusa updated the session and the plugin opened a new gateway order with a new page.
 */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"
import { isNexiCardProvider, isNexiProvider } from "./providers.js"
import { isWebAddress } from "./web-address.js"

/** The fields the kit reads of a Medusa payment session (the js-sdk's StorePaymentSession fits). */
export interface PaymentSessionLike {
  id: string
  provider_id: string
  data?: Record<string, unknown> | null
}

/** The fields the kit reads of a Medusa cart (the js-sdk's StoreCart fits). */
export interface CartLike {
  id: string
  payment_collection?: { payment_sessions?: PaymentSessionLike[] | null } | null
}

/** The cart fields to ask for: its payment sessions with their data. */
export const CART_PAYMENT_FIELDS = "id,*payment_collection.payment_sessions"

/** The cart's Nexi session, if it has one. Medusa keeps one session per cart: choosing a method replaces the last. */
export function nexiSessionOf(cart: CartLike): PaymentSessionLike | undefined {
  return cart.payment_collection?.payment_sessions?.find((session) => isNexiProvider(session.provider_id))
}

/** Reads the cart and answers its Nexi session, if it has one. */
export async function retrieveNexiSession(
  client: NexiStoreClient,
  cartId: string,
  options?: RequestOptions,
): Promise<PaymentSessionLike | undefined> {
  const { cart } = await client.fetch<{ cart: CartLike }>(`/store/carts/${encodeURIComponent(cartId)}`, {
    query: { fields: CART_PAYMENT_FIELDS },
    ...forwarded(options),
  })
  return nexiSessionOf(cart)
}

/** Thrown when a session has no page to pay on: the checkout should let the shopper choose the card again. */
export class NoHostedPageError extends Error {
  constructor(problem: string) {
    super(`hosted_page: ${problem}`)
    this.name = "NoHostedPageError"
  }
}

/** Where to send the browser (a full-page navigation, not a frame) for a card session. */
export function hostedPageOf(session: PaymentSessionLike | undefined): string {
  if (!session) throw new NoHostedPageError("the cart has no Nexi payment session; choose the card payment again")
  if (!isNexiCardProvider(session.provider_id)) {
    throw new NoHostedPageError(
      `${session.provider_id} is not a Nexi card provider; only card sessions have a hosted page`,
    )
  }
  const page = session.data?.hosted_page
  if (typeof page !== "string" || !isWebAddress(page)) {
    throw new NoHostedPageError(
      "the session holds no hosted page (it may have failed to start); choose the card payment again",
    )
  }
  return page
}

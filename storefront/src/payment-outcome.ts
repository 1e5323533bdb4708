/**
 * What became of a payment, for the result page (resultUrl), the cancel page (cancelUrl) and
 * the mobile payment's wait. The plugin's status route
 * `GET /store/nexi/payment-sessions/{id}?cart_id={cart_id}` answers the session as the gateway
 * has it now, and the order once the cart is completed; it answers only with the session's own
 * cart id (404 otherwise, as for a session that does not exist).
 */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"
import { retrieveNexiSession } from "./hosted-page.js"

export type PaymentOutcome =
  /** Paid: show the order (the starter's /{countryCode}/order/{id}/confirmed). */
  | { state: "order_placed"; orderId: string }
  /** The payment failed: show the reason (the plugin's words, for the shopper) and a way back to the payment step. */
  | { state: "declined"; reason: string | null }
  /** The shopper gave up on the hosted page, or never approved in their app. */
  | { state: "cancelled"; reason: string | null }
  /** The gateway has not decided yet: ask again. `approvalUrl` is the scheme's approval page of a mobile payment. */
  | { state: "pending"; sessionId: string; approvalUrl?: string }
  /** The cart has no Nexi payment session: the shopper never started one (or chose another method since). */
  | { state: "no_payment" }

/** The status route's answer. */
export interface NexiSessionStatus {
  payment_session: {
    id: string
    status: string
    provider_id: string
    data: { reason: string | null; transaction_id?: string; hosted_page?: string; approval_url?: string }
  }
  cart_completed: boolean
  order_id?: string
}

export interface SessionOfCart {
  cartId: string
  sessionId: string
}

/** Reads the status route once. */
export function getSessionStatus(
  client: NexiStoreClient,
  { cartId, sessionId }: SessionOfCart,
  options?: RequestOptions,
): Promise<NexiSessionStatus> {
  return client.fetch<NexiSessionStatus>(`/store/nexi/payment-sessions/${encodeURIComponent(sessionId)}`, {
    query: { cart_id: cartId },
    ...forwarded(options),
  })
}

/**
 * The outcome the status route's answer means. A session authorized or captured without an
 * order yet is pending: the plugin completes the cart on the server, and the order follows.
 */
export function outcomeOfStatus(status: NexiSessionStatus): PaymentOutcome {
  if (status.order_id) return { state: "order_placed", orderId: status.order_id }
  const { id, status: sessionStatus, data } = status.payment_session
  if (sessionStatus === "error") return { state: "declined", reason: data.reason ?? null }
  if (sessionStatus === "canceled") return { state: "cancelled", reason: data.reason ?? null }
  return { state: "pending", sessionId: id, ...(data.approval_url ? { approvalUrl: data.approval_url } : {}) }
}

/** The status route's answer as an outcome: what the mobile payment's wait polls. */
export async function readPaymentOutcome(
  client: NexiStoreClient,
  session: SessionOfCart,
  options?: RequestOptions,
): Promise<PaymentOutcome> {
  return outcomeOfStatus(await getSessionStatus(client, session, options))
}

type CompleteAnswer = { type: "order"; order: { id: string } } | { type: "cart" }

export interface ReturnInput {
  cartId: string
  /** The session the page came back for (the `{session_id}` placeholder); otherwise the cart's Nexi session. */
  sessionId?: string
}

/**
 * The result and cancel pages' work: completes the cart (an order means paid), and otherwise
 * asks the status route why not. Completing a completed cart answers its order, so a page
 * opened twice, or long after, shows the same order. Call it from a server action in a
 * Next.js storefront: completing revalidates the cart, which a server component's render may not.
 */
export async function resolveReturn(
  client: NexiStoreClient,
  { cartId, sessionId }: ReturnInput,
  options?: RequestOptions,
): Promise<PaymentOutcome> {
  const completed = await client
    .fetch<CompleteAnswer>(`/store/carts/${encodeURIComponent(cartId)}/complete`, {
      method: "POST",
      ...forwarded(options),
    })
    // A payment that did not go through fails the completion (an error status or a cart answer): the status route says why.
    .catch((error: unknown) => {
      if (options?.signal?.aborted) throw error
      return undefined
    })
  if (completed?.type === "order") return { state: "order_placed", orderId: completed.order.id }
  const id = sessionId ?? (await retrieveNexiSession(client, cartId, options))?.id
  if (!id) return { state: "no_payment" }
  return readPaymentOutcome(client, { cartId, sessionId: id }, options)
}

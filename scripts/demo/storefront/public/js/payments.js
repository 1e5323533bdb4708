/**
 * The payment calls of the checkout, as any Medusa storefront makes them: one payment
 * collection per cart, one session per attempt (Medusa replaces the previous session), and
 * the plugin's status route for what happened to it.
 */

/** The cart's latest session of a Nexi provider, if any. */
export function nexiSessionOf(cart) {
  const sessions = cart.payment_collection?.payment_sessions ?? []
  return sessions.filter((session) => session.provider_id.startsWith("pp_nexi")).at(-1)
}

/**
 * Creates the payment session; `data.consumer_id` is the shopper's mobile number for a mobile
 * payment. Answers the session, whose data holds `hosted_page` for a card payment.
 */
export async function startPaymentSession(api, cart, providerId, data) {
  const collectionId =
    cart.payment_collection?.id ??
    (await api.post("/store/payment-collections", { cart_id: cart.id })).payment_collection.id
  const { payment_collection } = await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
    provider_id: providerId,
    ...(data ? { data } : {}),
  })
  return payment_collection.payment_sessions.find((session) => session.provider_id === providerId)
}

/**
 * What happened to a payment: { payment_session: { status, data: { reason, approval_url } },
 * cart_completed, order_id }. The route reads a pending payment again from the gateway (at
 * most once every few seconds) and answers only the session's own cart: without the cart id,
 * or with another's, it answers 404.
 */
export async function paymentStatus(api, cartId, sessionId) {
  return api.get(`/store/nexi/payment-sessions/${encodeURIComponent(sessionId)}?cart_id=${encodeURIComponent(cartId)}`)
}

export function failed(status) {
  return status.payment_session.status === "error" || status.payment_session.status === "canceled"
}

export function failureMessage(status) {
  const reason = status.payment_session.data?.reason
  const what =
    status.payment_session.status === "canceled" ? "The payment was cancelled" : "The payment did not go through"
  return reason ? `${what}: ${reason}` : `${what}.`
}

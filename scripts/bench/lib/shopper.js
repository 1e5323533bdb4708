/**
 * One shopper's checkout through the store API, as a storefront drives it: a cart with one
 * line, addresses and an email; the payment collection and session; the payment (the hosted
 * page, played on the simulator's control API, whose notification reaches Medusa before the
 * shopper is back; or the phone approval); then the order. Times each step: the cart with its
 * payment collection, the session, the payment on the hosted page, the cart's completion.
 */
const { performance } = require("node:perf_hooks")
const { ADDRESS } = require("./card-fixtures")

const CARD_PROVIDER = "pp_nexi_nexi"
const SYSTEM_PROVIDER = "pp_system_default"
const APM_PROVIDER = "pp_nexi-apm-psp-b_nexi"

let shopperNumber = 0

async function timed(action) {
  const started = performance.now()
  const result = await action()
  return { result, ms: performance.now() - started }
}

/**
 * @param {{ api: ReturnType<import("./store-api").storeApi>, control: ReturnType<import("./sim-control").simControl>,
 *   regionId: string, variantId: string }} store
 */
function shopper({ api, control, regionId, variantId }) {
  /** Completed checkouts by kind, for the memory part's "after 1,000 checkouts". */
  const completed = { card: 0, system: 0, apm: 0 }
  async function cartWithSession(providerId, data) {
    const email = `shopper${++shopperNumber}.${process.pid}@bench.local`
    const opened = await timed(async () => {
      const { cart } = await api.post("/store/carts", {
        region_id: regionId,
        email,
        items: [{ variant_id: variantId, quantity: 1 }],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      })
      const { payment_collection: collection } = await api.post("/store/payment-collections", { cart_id: cart.id })
      return { cart, collection }
    })
    const { cart, collection } = opened.result
    const session = await timed(() =>
      api.post(`/store/payment-collections/${collection.id}/payment-sessions`, {
        provider_id: providerId,
        ...(data ? { data } : {}),
      }),
    )
    const created = session.result.payment_collection.payment_sessions.find(
      (candidate) => candidate.provider_id === providerId,
    )
    return { cart, session: created, cartMs: opened.ms, sessionMs: session.ms }
  }

  async function complete(cartId) {
    const completion = await timed(() => api.post(`/store/carts/${cartId}/complete`))
    if (completion.result.type !== "order") {
      throw new Error(
        `cart ${cartId} did not complete: ${JSON.stringify(completion.result.error ?? completion.result).slice(0, 300)}`,
      )
    }
    return { orderId: completion.result.order.id, completeMs: completion.ms }
  }

  return {
    completed,

    /** Cart -> hosted payment page (approved card) -> notification -> order. */
    async cardCheckout() {
      const { cart, session, cartMs, sessionMs } = await cartWithSession(CARD_PROVIDER)
      const paid = await timed(() => control.payHostedOrder(session.data.order_id, { awaitNotification: true }))
      if (paid.result.result !== "AUTHORIZED" && paid.result.result !== "EXECUTED") {
        throw new Error(`hosted payment of ${session.data.order_id} ended ${paid.result.result}`)
      }
      const done = await complete(cart.id)
      completed.card++
      return { ...done, cartMs, sessionMs, payMs: paid.ms, sessionId: session.id }
    },

    /** The same cart paid with Medusa's system provider: the baseline. */
    async systemCheckout() {
      const { cart, cartMs, sessionMs } = await cartWithSession(SYSTEM_PROVIDER)
      const done = await complete(cart.id)
      completed.system++
      return { ...done, cartMs, sessionMs }
    },

    /** Cart -> mobile payment approved in the (simulated) app -> the status route completes it -> order. */
    async apmCheckout({ pollIntervalMs = 500, timeoutMs = 60_000 } = {}) {
      const { cart, session, sessionMs } = await cartWithSession(APM_PROVIDER, { consumer_id: "+4712345678" })
      await control.approveApm(session.data.transaction_id)
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const status = await api.get(`/store/nexi/payment-sessions/${session.id}?cart_id=${cart.id}`)
        if (status.order_id) {
          completed.apm++
          return { orderId: status.order_id, sessionMs, sessionId: session.id }
        }
        if (Date.now() > deadline)
          throw new Error(`mobile payment session ${session.id} made no order within ${timeoutMs / 1000} s`)
        await new Promise((resolve) => setTimeout(resolve, pollIntervalMs))
      }
    },
  }
}

module.exports = { shopper }

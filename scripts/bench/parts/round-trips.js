/**
 * Round trips: the gateway requests one completed checkout costs, counted by the simulator,
 * through a running store (the plugin as Medusa drives it, not a guess of the call order).
 * - Card, initiate to captured: cart, hosted payment session, payment on the hosted page with
 *   its notification, cart completion, then the capture from the admin API; after Medusa has
 *   handled the notification too.
 * - Mobile payment (PSP_B): cart, session, approval in the app, the storefront's status poll
 *   that completes the cart. The service captures by itself: no capture request.
 * Checkouts run one at a time; the counts are per checkout, by endpoint.
 */
const { countSince } = require("../lib/request-counts")
const { settle } = require("../lib/settle")

/** The requests each flow needs, how many, and why; anything else measured is a call it does not need. */
const NEEDED = {
  card: {
    "POST /orders/hpp": { count: 1, why: "initiatePayment: the hosted order the shopper pays on" },
    "GET /orders/{id}": {
      count: 2,
      why: "one re-read for the notification (its body is never trusted), one for authorizePayment at cart completion",
    },
    "POST /operations/{id}/captures": { count: 1, why: "capturePayment, from the admin" },
  },
  apm: {
    "POST APM /transaction/payment/initializeWithIdempotency": {
      count: 1,
      why: "initiatePayment: the payment the shopper approves in the app",
    },
    "GET APM /transaction/{id}": {
      count: 2,
      why: "one re-read for the storefront's status poll, one for authorizePayment as that poll completes the cart",
    },
  },
}

/** Requests per checkout by endpoint, and whether they are exactly the ones the flow needs. */
function perCheckout(counts, checkouts, needed) {
  const byEndpoint = Object.fromEntries(
    Object.entries(counts)
      .map(([endpoint, count]) => [endpoint, count / checkouts])
      .sort(([a], [b]) => a.localeCompare(b)),
  )
  const total = Object.values(byEndpoint).reduce((sum, count) => sum + count, 0)
  const endpoints = new Set([...Object.keys(byEndpoint), ...Object.keys(needed)])
  const met = [...endpoints].every((endpoint) => byEndpoint[endpoint] === needed[endpoint]?.count)
  return { perCheckout: total, byEndpoint, needed, met }
}

async function capturePaymentOf(admin, orderId) {
  const { order } = await admin.get(`/admin/orders/${orderId}?fields=id,payment_collections.payments.id`)
  const paymentId = order.payment_collections[0].payments[0].id
  await admin.post(`/admin/payments/${paymentId}/capture`, {})
}

/**
 * @param {{ shopper: ReturnType<import("../lib/shopper").shopper>, admin: ReturnType<import("../lib/store-api").adminApi>,
 *   control: ReturnType<import("../lib/sim-control").simControl>, checkouts: number, log: (line: string) => void }} run
 */
async function measureRoundTrips({ shopper, admin, control, checkouts, log }) {
  log(`round trips: ${checkouts} card checkouts, captured from the admin`)
  let since = await settle(control)
  for (let index = 0; index < checkouts; index++) {
    const { orderId } = await shopper.cardCheckout()
    await capturePaymentOf(admin, orderId)
  }
  let after = await settle(control)
  const card = perCheckout(countSince((await control.requests()).requests, since), checkouts, NEEDED.card)

  log(`round trips: ${checkouts} mobile payment checkouts`)
  since = after
  for (let index = 0; index < checkouts; index++) await shopper.apmCheckout()
  after = await settle(control)
  const apm = perCheckout(countSince((await control.requests()).requests, since), checkouts, NEEDED.apm)
  return { checkouts, card, apm }
}

module.exports = { measureRoundTrips }

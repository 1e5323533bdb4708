/**
 * Card payments in the state each measured call needs (pending, authorized, captured),
 * prepared before any clock runs, through a provider of their own so the measured
 * provider's connections stay untouched. The shopper pays on the simulator's control API.
 */
const { mapLimit } = require("./pool")

const AMOUNT = "24.90"
const CURRENCY = "eur"

/** The shopper's address, in the provider fixtures and on the bench's store carts alike. */
const ADDRESS = {
  first_name: "Giulia",
  last_name: "Bianchi",
  address_1: "Via Roma 1",
  city: "Milano",
  postal_code: "20121",
  province: "MI",
  country_code: "it",
  phone: "+390212345678",
}

/** What Medusa passes to initiatePayment for a two-line cart, with the plugin's cart snapshot. */
function initiateInput(sessionId) {
  return {
    amount: AMOUNT,
    currency_code: CURRENCY,
    data: {
      session_id: sessionId,
      nexi_cart: {
        cart_id: `cart_${sessionId}`,
        email: "giulia@example.com",
        customer_id: "cus_bench",
        locale: "it-IT",
        currency_code: CURRENCY,
        total: 24.9,
        tax_total: 4.49,
        billing_address: ADDRESS,
        shipping_address: ADDRESS,
        items: [
          {
            id: "item_1",
            title: "T-shirt",
            variant_sku: "TS-M",
            quantity: 1,
            unit_price: 19.9,
            total: 19.9,
            tax_rate: 22,
          },
          { id: "item_2", title: "Socks", variant_sku: "SO-1", quantity: 1, unit_price: 5, total: 5, tax_rate: 22 },
        ],
      },
    },
    context: {
      idempotency_key: sessionId,
      customer: { id: "cus_bench", email: "giulia@example.com", first_name: "Giulia", last_name: "Bianchi" },
    },
  }
}

let sequence = 0
const nextSessionId = (label) => `payses_bench_${label}_${++sequence}`

/**
 * @param {{ provider: any, control: ReturnType<import("./sim-control").simControl>, standIn: ReturnType<import("./medusa-stand-in").medusaStandIn> }} deps
 */
function cardFixtures({ provider, control, standIn }) {
  async function pending(label) {
    const id = nextSessionId(label)
    const { data } = await provider.initiatePayment(initiateInput(id))
    standIn.addSession({ id, status: "pending", data, amount: AMOUNT, currency_code: CURRENCY, created_at: new Date() })
    return data
  }

  /** Paid on the hosted page but not yet read by Medusa (what authorizePayment and a notification meet). */
  async function paid(label) {
    const data = await pending(label)
    await control.payHostedOrder(data.order_id)
    return data
  }

  async function authorized(label) {
    const { data } = await provider.authorizePayment({ data: await paid(label) })
    if (data.status !== "authorized")
      throw new Error(`fixture ${label}: expected an authorized payment, got ${data.status}`)
    return data
  }

  async function captured(label) {
    const data = await authorized(label)
    const captureId = `capt_${data.session_id}`
    standIn.addCapture(captureId, AMOUNT)
    return (await provider.capturePayment({ data, context: { idempotency_key: captureId } })).data
  }

  const many = (count, make, label) => mapLimit(count, 8, () => make(label))
  return { pending, paid, authorized, captured, many }
}

module.exports = { ADDRESS, AMOUNT, cardFixtures, initiateInput, nextSessionId }

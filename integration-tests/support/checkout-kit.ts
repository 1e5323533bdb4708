/**
 * What the fault and load suites do to and read from a store: a one-region shop, card
 * checkouts opened and paid many at a time (on the hosted page, or in XPay Build's fields), and
 * the records that tell whether a fault left a trace (orders per cart, the Medusa payment and
 * its captures, the gateway's operations, the requests the simulator received, the webhook
 * events Medusa dispatched).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import type { SimulatorHandle } from "./simulator"
import { createCart, eventually, NEXI_CARD_PROVIDER, seedEuroShop, startPaymentSession, storeHeaders } from "./store"

export const CARDS = {
  approved: { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
  approvedMc: { pan: "5593497948332903", expiryDate: "1230", cvv: "399" },
  declined: { pan: "5515931855858729", expiryDate: "1230", cvv: "123" },
} as const

/** The product's price: 19.99 EUR, 1999 minor units at the gateway. */
export const UNIT_PRICE = { major: 19.99, minor: "1999" }

type Api = Parameters<typeof createCart>[0]

export interface CardCheckout {
  cartId: string
  sessionId: string
  /** The gateway order id of the hosted page. */
  orderId: string
}

export interface BuildCheckout extends CardCheckout {
  /** The gateway's Build session, whose fields the shopper fills and the store finalizes. */
  buildSessionId: string
}

type Card = { pan: string; expiryDate: string; cvv: string }

/** The card typed in a Build session's fields and confirmed (the SDK's confirmData()), as the field pages send it. */
export async function confirmBuildCard(simulatorUrl: string, buildSessionId: string, card: Card = CARDS.approved) {
  const answer = await fetch(`${simulatorUrl}/fields/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      sid: buildSessionId,
      values: {
        CARD_NUMBER: card.pan,
        EXPIRATION_DATE: `${card.expiryDate.slice(0, 2)}/${card.expiryDate.slice(2)}`,
        SECURITY_CODE: card.cvv,
        CARDHOLDER_NAME: "Giulia Rossi",
      },
    }),
  })
  expect(await answer.json()).toMatchObject({ state: "READY_FOR_PAYMENT" })
}

export interface RecordedPayment {
  id: string
  amount: number
  captured_at: string | null
  captures: Array<{ id: string; amount: number }>
  refunds: Array<{ id: string; amount: number }>
  data: Record<string, any>
}

/** Runs `work` over `items` with at most `limit` at a time; results keep the items' order. */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index], index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

export class CheckoutKit {
  publishableKey = ""
  salesChannelId = ""
  regionId = ""
  variantId = ""
  private shoppers = 0

  constructor(
    private readonly api: Api,
    private readonly container: () => MedusaContainer,
    private readonly simulator: SimulatorHandle,
  ) {}

  /** A fresh shop: sales channel and key, an Italian EUR region with every Nexi provider, one product. */
  async seed(): Promise<void> {
    const container = this.container()
    const shop = await seedEuroShop(container, UNIT_PRICE.major)
    this.publishableKey = shop.publishableKey
    this.salesChannelId = shop.salesChannelId
    this.regionId = shop.regionId
    this.variantId = shop.variantId
  }

  async openCardCheckout(data?: Record<string, unknown>): Promise<CardCheckout> {
    this.shoppers += 1
    const email = `shopper-${this.shoppers}@example.com`
    const cart = await createCart(this.api, this.publishableKey, {
      regionId: this.regionId,
      variantId: this.variantId,
      email,
    })
    const { session } = await startPaymentSession(this.api, this.publishableKey, cart.id, NEXI_CARD_PROVIDER, data)
    return { cartId: cart.id, sessionId: session.id, orderId: session.data.order_id }
  }

  /** A Build checkout whose card the shopper typed and confirmed: the store's finalize is next. */
  async openBuildCheckoutReady(card: Card = CARDS.approved): Promise<BuildCheckout> {
    const checkout = await this.openCardCheckout({ integration: "build" })
    const { data } = await this.session(checkout.sessionId)
    const buildSessionId = String(data?.build_session_id)
    await confirmBuildCard(this.simulator.url, buildSessionId, card)
    return { ...checkout, buildSessionId }
  }

  /** POST /store/nexi/payment-sessions/:id/finalize as the checkout page sends it; a refusal is returned, not thrown. */
  finalizeBuild(checkout: CardCheckout): Promise<{ status: number; body: any }> {
    return this.answerOf(
      this.api.post(
        `/store/nexi/payment-sessions/${checkout.sessionId}/finalize`,
        { cart_id: checkout.cartId },
        storeHeaders(this.publishableKey),
      ),
    )
  }

  /**
   * A mobile payment of the consumer's (docs/simulator-apm.md), approved in the app, its cart
   * completed by the storefront's status poll; the order, the transaction and Medusa's payment.
   */
  async paidMobileOrder(consumerId: string, providerId = "pp_nexi-apm-psp-b_nexi") {
    const cart = await createCart(this.api, this.publishableKey, { regionId: this.regionId, variantId: this.variantId })
    const { session } = await startPaymentSession(this.api, this.publishableKey, cart.id, providerId, {
      consumer_id: consumerId,
    })
    expect(session.status).toBe("pending")
    const transactionId = String(session.data.transaction_id)
    await this.simulator.control("POST", `/apm/${transactionId}/approve`)
    const done = await eventually(async () => {
      const { data } = await this.api.get(
        `/store/nexi/payment-sessions/${session.id}?cart_id=${cart.id}`,
        storeHeaders(this.publishableKey),
      )
      return data.cart_completed ? (data as { order_id: string }) : undefined
    })
    const [payment] = await this.paymentsOfOrder(done.order_id)
    expect(payment.captured_at).toBeTruthy()
    expect(payment.captures.map((capture) => Number(capture.amount))).toEqual([UNIT_PRICE.major])
    return { orderId: done.order_id, transactionId, payment }
  }

  /** `count` checkouts opened `limit` at a time, as many shoppers would. */
  openCardCheckouts(count: number, limit = 6): Promise<CardCheckout[]> {
    return mapWithLimit(Array.from({ length: count }), limit, () => this.openCardCheckout())
  }

  /** The shopper pays on the hosted page (the simulator's control API runs the page's code). */
  pay(orderId: string, card: Card = CARDS.approved, awaitNotification = false) {
    return this.simulator.control<{ result: string; notification: unknown }>("POST", `/hpp/${orderId}/pay`, {
      ...card,
      awaitNotification,
    })
  }

  /** POST /store/carts/:id/complete as the storefront sends it; a refusal is returned, not thrown. */
  completeAsShopper(cartId: string): Promise<{ status: number; body: any }> {
    return this.answerOf(this.api.post(`/store/carts/${cartId}/complete`, {}, storeHeaders(this.publishableKey)))
  }

  private answerOf(request: Promise<{ status: number; data: unknown }>): Promise<{ status: number; body: any }> {
    return request.then(
      (answer) => ({ status: answer.status, body: answer.data }),
      (error: { response?: { status: number; data: unknown }; message: string }) =>
        error.response
          ? { status: error.response.status, body: error.response.data }
          : { status: 0, body: error.message },
    )
  }

  async ordersOfCart(cartId: string): Promise<string[]> {
    const query = this.container().resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
    return data.map((row: { order_id: string }) => row.order_id)
  }

  /** Orders of many carts at once: cart id to its order ids. */
  async ordersOfCarts(cartIds: readonly string[]): Promise<Map<string, string[]>> {
    const query = this.container().resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order_cart",
      fields: ["cart_id", "order_id"],
      filters: { cart_id: [...cartIds] },
    })
    const orders = new Map<string, string[]>(cartIds.map((id) => [id, []]))
    for (const row of data as Array<{ cart_id: string; order_id: string }>) orders.get(row.cart_id)?.push(row.order_id)
    return orders
  }

  /** The Medusa payments of an order, with captures and refunds. */
  async paymentsOfOrder(orderId: string): Promise<RecordedPayment[]> {
    const query = this.container().resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order",
      fields: [
        "id",
        "payment_collections.payments.id",
        "payment_collections.payments.amount",
        "payment_collections.payments.captured_at",
        "payment_collections.payments.data",
        "payment_collections.payments.captures.id",
        "payment_collections.payments.captures.amount",
        "payment_collections.payments.refunds.id",
        "payment_collections.payments.refunds.amount",
      ],
      filters: { id: orderId },
    })
    const collections = (data[0]?.payment_collections ?? []) as Array<{ payments?: RecordedPayment[] } | null>
    return collections.flatMap((collection) => collection?.payments ?? [])
  }

  async session(sessionId: string) {
    const [session] = await this.container().resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId })
    return session
  }

  /** Every payment session of the cart's payment collections. */
  async sessionsOfCart(cartId: string): Promise<Array<{ id: string; status: string; provider_id: string }>> {
    const query = this.container().resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "cart",
      fields: [
        "payment_collection.payment_sessions.id",
        "payment_collection.payment_sessions.status",
        "payment_collection.payment_sessions.provider_id",
      ],
      filters: { id: cartId },
    })
    return (data[0]?.payment_collection?.payment_sessions ?? []) as Array<{
      id: string
      status: string
      provider_id: string
    }>
  }

  gatewayOrder(orderId: string) {
    return this.simulator.gateway<{ orderStatus: any; operations: Array<Record<string, any>> }>(`/orders/${orderId}`)
  }

  /** The gateway's operations of one type and result on a hosted order, e.g. every CAPTURE/EXECUTED. */
  async gatewayOperations(orderId: string, type: string, result: string) {
    const { operations } = await this.gatewayOrder(orderId)
    return operations.filter((operation) => operation.operationType === type && operation.operationResult === result)
  }

  /** The requests the simulator received whose method and path match (`*` = one path segment). */
  async requests(method: string, pathPattern: string) {
    const { requests } = await this.simulator.control<{
      requests: Array<{ method: string; path: string; status: number; idempotencyKey?: string; fault?: string }>
    }>("GET", "/requests")
    const pattern = new RegExp(`^${pathPattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]+")}$`)
    return requests.filter((request) => request.method === method && pattern.test(request.path))
  }
}

/**
 * Counts the payment.webhook_received events Medusa dispatches to its subscribers (after its
 * webhook delay), so a suite can wait until every notification it sent was handed on.
 */
export function countWebhookEvents(container: MedusaContainer): { count(): number } {
  let dispatched = 0
  container.resolve(Modules.EVENT_BUS).subscribe(
    PaymentWebhookEvents.WebhookReceived,
    async () => {
      dispatched += 1
    },
    { subscriberId: `fault-suite-webhook-counter-${Date.now()}` },
  )
  return { count: () => dispatched }
}

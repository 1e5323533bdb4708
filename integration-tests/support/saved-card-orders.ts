/**
 * Orders whose customer saved a card at checkout, and the order edit that makes such an order
 * owe money again: what a merchant-initiated charge (POST /orders/mit) needs before staff press
 * "Charge saved card". Shared by the saved-card charge suite and the crash suite.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { NEXI_LEDGER_MODULE, type SavedCard, type SavedCardBook } from "../../src/modules/nexi-ledger/types"
import type { SimulatorHandle } from "./simulator"
import { ADDRESS, type createCart, NEXI_CARD_PROVIDER } from "./store"

export const VISA = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }

type Api = Parameters<typeof createCart>[0]
export type Answer = { status: number; body: any }
type Headers = { headers: Record<string, string> }

export interface ShopIds {
  publishableKey: string
  regionId: string
  variantId: string
}

/** The answer of an admin or store request, a refusal included (axios throws on 4xx and 5xx). */
export function answerOf(request: Promise<{ status: number; data: unknown }>): Promise<Answer> {
  return request.then(
    (answer) => ({ status: answer.status, body: answer.data }),
    (error: { response?: { status: number; data: unknown } }) => {
      if (!error.response) throw error
      return { status: error.response.status, body: error.response.data }
    },
  )
}

export class SavedCardOrders {
  constructor(
    private readonly api: Api,
    private readonly container: () => MedusaContainer,
    private readonly simulator: SimulatorHandle,
    private readonly shop: ShopIds,
    private readonly staff: Headers,
  ) {}

  async registerCustomer(name: string) {
    const email = `${name}-${randomUUID().slice(0, 8)}@example.com`
    const password = `pw-${randomUUID()}`
    const { data: registered } = await this.api.post("/auth/customer/emailpass/register", { email, password })
    const { data: created } = await this.api.post(
      "/store/customers",
      { email, first_name: name, last_name: "Rossi" },
      { headers: { authorization: `Bearer ${registered.token}`, "x-publishable-api-key": this.shop.publishableKey } },
    )
    const { data: login } = await this.api.post("/auth/customer/emailpass", { email, password })
    const auth = {
      headers: { authorization: `Bearer ${login.token}`, "x-publishable-api-key": this.shop.publishableKey },
    }
    return { id: created.customer.id as string, email, auth }
  }

  /**
   * A checkout of one 19.99 EUR line that saves the card (with or without consent to merchant
   * charges), its payment captured: the order then owes nothing until it is edited.
   */
  async orderWithSavedCard(sessionData: Record<string, unknown>) {
    const customer = await this.registerCustomer("giulia")
    const { data: cartAnswer } = await this.api.post(
      "/store/carts",
      {
        region_id: this.shop.regionId,
        email: customer.email,
        items: [{ variant_id: this.shop.variantId, quantity: 1 }],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      },
      customer.auth,
    )
    const cartId = cartAnswer.cart.id
    const { data: collection } = await this.api.post("/store/payment-collections", { cart_id: cartId }, customer.auth)
    const started = await answerOf(
      this.api.post(
        `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
        { provider_id: NEXI_CARD_PROVIDER, data: sessionData },
        customer.auth,
      ),
    )
    expect(started.status).toBe(200)
    const session = started.body.payment_collection.payment_sessions[0]
    await this.simulator.control("POST", `/hpp/${session.data.order_id}/pay`, { ...VISA, awaitNotification: true })
    const completed = await answerOf(this.api.post(`/store/carts/${cartId}/complete`, {}, customer.auth))
    expect(completed.body.type).toBe("order")
    const orderId = completed.body.order.id as string
    const [payment] = (await this.orderView(orderId)).payment_collections[0].payments
    await capturePaymentWorkflow(this.container()).run({ input: { payment_id: payment.id } })
    const cards = await this.container()
      .resolve<SavedCardBook>(NEXI_LEDGER_MODULE)
      .savedCards({ customerId: customer.id, states: ["active"], limit: 5 })
    return { customer, orderId, card: cards[0] as SavedCard }
  }

  /** Medusa's order edit, as the admin makes it: one more line of the product, confirmed. */
  async editAddingAnItem(orderId: string): Promise<string> {
    const { data: edit } = await this.api.post("/admin/order-edits", { order_id: orderId }, this.staff)
    const changeId = edit.order_change.id
    await this.api.post(
      `/admin/order-edits/${orderId}/items`,
      { items: [{ variant_id: this.shop.variantId, quantity: 1 }] },
      this.staff,
    )
    await this.api.post(`/admin/order-edits/${orderId}/request`, {}, this.staff)
    await this.api.post(`/admin/order-edits/${orderId}/confirm`, {}, this.staff)
    return changeId
  }

  /** The order's payment collections, their payments and sessions, as Query reads them. */
  async orderView(orderId: string) {
    const query = this.container().resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order",
      fields: [
        "id",
        "summary.*",
        "payment_collections.id",
        "payment_collections.status",
        "payment_collections.amount",
        "payment_collections.payments.id",
        "payment_collections.payments.amount",
        "payment_collections.payments.captured_at",
        "payment_collections.payment_sessions.id",
        "payment_collections.payment_sessions.status",
      ],
      filters: { id: orderId },
    })
    return data[0] as any
  }
}

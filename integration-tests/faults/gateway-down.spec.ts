/**
 * Issue 8, gateway down during checkout: the storefront gets a clear error, no payment is left
 * behind without an order, and once the gateway is back the same shopper pays and gets an
 * order. "Down" is a 503 or a connection that breaks, injected by the simulator.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { CARDS, CheckoutKit } from "../support/checkout-kit"
import { simulatorForSuite } from "../support/simulator"
import { createCart, NEXI_CARD_PROVIDER, storeHeaders } from "../support/store"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
    })

    /** The storefront's "pay with card" click: a payment collection, then the Nexi session. */
    async function choosePayment(cartId: string) {
      const { data } = await api.post(
        "/store/payment-collections",
        { cart_id: cartId },
        storeHeaders(kit.publishableKey),
      )
      return api
        .post(
          `/store/payment-collections/${data.payment_collection.id}/payment-sessions`,
          { provider_id: NEXI_CARD_PROVIDER },
          storeHeaders(kit.publishableKey),
        )
        .then(
          (answer: { status: number; data: any }) => ({ status: answer.status, body: answer.data }),
          (error: { response: { status: number; data: any } }) => ({
            status: error.response.status,
            body: error.response.data,
          }),
        )
    }

    async function gatewayOrderIds(): Promise<string[]> {
      const { orders } = await simulator.gateway<{ orders: Array<{ order: { orderId: string } }> }>("/orders")
      return orders.map((status) => status.order.orderId)
    }

    it("tells the shopper the gateway is unavailable, keeps no session, and takes the payment once it is back", async () => {
      const cart = await createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
      await simulator.control("POST", "/faults", {
        match: { path: `${GATEWAY}/orders/hpp` },
        action: { type: "status", status: 503 },
      })

      // Medusa answers a provider's "unexpected state" with 500 and the provider's message.
      const refused = await choosePayment(cart.id)
      expect(refused).toEqual({
        status: 500,
        body: {
          type: "unexpected_state",
          message:
            "Could not start the payment: The Nexi gateway is unavailable. Nothing was changed; try again shortly.",
        },
      })
      expect(await kit.sessionsOfCart(cart.id)).toEqual([])
      expect(await gatewayOrderIds()).toEqual([])

      await simulator.control("DELETE", "/faults")
      const accepted = await choosePayment(cart.id)
      expect(accepted.status).toBe(200)
      const [session] = accepted.body.payment_collection.payment_sessions
      await kit.pay(session.data.order_id, CARDS.approved, true)
      expect((await kit.completeAsShopper(cart.id)).body.type).toBe("order")
      expect(await gatewayOrderIds()).toEqual([session.data.order_id])
    })

    it("refuses clearly when the connection breaks after the gateway opened the hosted page, and pays on a fresh one", async () => {
      const cart = await createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
      await simulator.control("POST", "/faults", {
        match: { path: `${GATEWAY}/orders/hpp` },
        times: 1,
        phase: "after",
        action: { type: "reset" },
      })

      const refused = await choosePayment(cart.id)
      expect(refused.status).toBe(500)
      expect(refused.body.message).toMatch(/^Could not start the payment: The Nexi gateway did not answer in time/)
      expect(await kit.sessionsOfCart(cart.id)).toEqual([])
      // The hosted order the gateway opened was never shown to anyone: unpaid, it expires.
      const [abandoned] = await gatewayOrderIds()
      expect((await kit.gatewayOrder(abandoned)).operations).toEqual([])

      const accepted = await choosePayment(cart.id)
      const [session] = accepted.body.payment_collection.payment_sessions
      expect(session.data.order_id).not.toBe(abandoned)
      await kit.pay(session.data.order_id, CARDS.approved, true)
      expect((await kit.completeAsShopper(cart.id)).body.type).toBe("order")
    })

    it("refuses to complete while the gateway cannot confirm the payment, without an order, and completes once it can", async () => {
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      await simulator.control("POST", "/faults", {
        match: { method: "GET", path: `${GATEWAY}/orders/*` },
        action: { type: "status", status: 503 },
      })

      const refused = await kit.completeAsShopper(checkout.cartId)
      expect(refused).toEqual({
        status: 500,
        body: {
          type: "unexpected_state",
          message:
            "Could not authorize the payment: The Nexi gateway is unavailable. Nothing was changed; try again shortly.",
        },
      })
      expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])
      expect((await kit.session(checkout.sessionId)).status).toBe("pending")

      await simulator.control("DELETE", "/faults")
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      expect(Number(payment.amount)).toBe(19.99)
      expect(await kit.gatewayOperations(checkout.orderId, "AUTHORIZATION", "AUTHORIZED")).toHaveLength(1)
    })
  },
})

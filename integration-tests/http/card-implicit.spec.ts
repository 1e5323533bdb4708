/**
 * captureType IMPLICIT: the gateway captures at payment, Medusa records the capture itself,
 * and no capture is ever sent to the gateway.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { simulatorForSuite } from "../support/simulator"
import { completeCart, createCart, NEXI_CARD_PROVIDER, seedEuroShop, startPaymentSession } from "../support/store"

jest.setTimeout(180_000)

// medusa-config.ts reads the capture type when the store boots, after this hook.
const previousCaptureType = process.env.NEXI_CAPTURE_TYPE
beforeAll(() => {
  process.env.NEXI_CAPTURE_TYPE = "IMPLICIT"
})
afterAll(() => {
  process.env.NEXI_CAPTURE_TYPE = previousCaptureType
})

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    it("records the payment as captured at checkout without sending a capture", async () => {
      const container = getContainer()
      const shop = await seedEuroShop(container)
      const cart = await createCart(api, shop.publishableKey, { regionId: shop.regionId, variantId: shop.variantId })
      const { session } = await startPaymentSession(api, shop.publishableKey, cart.id, NEXI_CARD_PROVIDER)

      const created = await simulator.gateway<{ orderStatus: any }>(`/orders/${session.data.order_id}`)
      expect(created.orderStatus.order.orderId).toBe(session.data.order_id)
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, {
        pan: "4999340261977289",
        expiryDate: "1230",
        cvv: "663",
      })
      const completed = await completeCart(api, shop.publishableKey, cart.id)
      expect(completed.type).toBe("order")

      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: ["payment_collections.payments.captured_at", "payment_collections.payments.captures.amount"],
        filters: { id: (completed as { order: { id: string } }).order.id },
      })
      const payment = data[0].payment_collections[0].payments[0]
      expect(payment.captured_at).not.toBeNull()
      expect(payment.captures.map((capture: { amount: number }) => capture.amount)).toEqual([19.99])

      const paid = await simulator.gateway<{ orderStatus: any; operations: any[] }>(`/orders/${session.data.order_id}`)
      expect(paid.orderStatus.capturedAmount).toBe("1999")
      const { counts } = await simulator.control<{ counts: Record<string, number> }>("GET", "/requests")
      const captureCalls = Object.entries(counts).filter(([endpoint]) => endpoint.endsWith("/captures"))
      expect(captureCalls).toEqual([])
    })
  },
})

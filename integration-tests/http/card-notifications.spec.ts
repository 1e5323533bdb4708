/**
 * Notifications that arrive late, in the wrong order, forged or replayed with a false claim,
 * and payments that end without money: the session must tell the truth the gateway tells.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { simulatorForSuite } from "../support/simulator"
import {
  completeCart,
  createCart,
  eventually,
  NEXI_CARD_PROVIDER,
  seedEuroShop,
  startPaymentSession,
} from "../support/store"

jest.setTimeout(180_000)

const APPROVED = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const THREEDS_FAILS = { pan: "4349940199997007", expiryDate: "1230", cvv: "123" }
const DECLINED = { pan: "5515931855858729", expiryDate: "1230", cvv: "123" }
const WEBHOOK_DELAY_MS = 7_000

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let regionId: string
    let variantId: string

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      ;({ publishableKey, regionId, variantId } = await seedEuroShop(container))
    })

    async function openCheckout() {
      const cart = await createCart(api, publishableKey, { regionId, variantId })
      const { session } = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER)
      return { cart, session }
    }

    const sessionOf = async (sessionId: string) =>
      (await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId }))[0]
    const settle = () => new Promise((resolve) => setTimeout(resolve, WEBHOOK_DELAY_MS))

    async function ordersOfCart(cartId: string): Promise<string[]> {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
      return data.map((row: { order_id: string }) => row.order_id)
    }

    async function sessionReaches(sessionId: string, status: string) {
      return eventually(async () => {
        const session = await sessionOf(sessionId)
        return session.status === status ? session : undefined
      })
    }

    it("shows a 3-D Secure failure on the session", async () => {
      const { session } = await openCheckout()
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, { ...THREEDS_FAILS, challenge: "fail" })
      const failed = await sessionReaches(session.id, "error")
      expect(failed.data.reason).toMatch(/3-D Secure/)
    })

    it("shows a payment abandoned on the hosted page as cancelled", async () => {
      const { session } = await openCheckout()
      await simulator.control("POST", `/hpp/${session.data.order_id}/cancel`, {})
      const cancelled = await sessionReaches(session.id, "canceled")
      expect(cancelled.data.reason).toMatch(/cancelled/i)
    })

    it("completes each cart once when notifications arrive in reverse order", async () => {
      await simulator.control("POST", "/faults/notifications", { reverseBatch: 2 })
      const first = await openCheckout()
      const second = await openCheckout()
      await simulator.control("POST", `/hpp/${first.session.data.order_id}/pay`, {
        ...APPROVED,
        awaitNotification: false,
      })
      await simulator.control("POST", `/hpp/${second.session.data.order_id}/pay`, {
        ...APPROVED,
        awaitNotification: false,
      })
      await simulator.control("POST", "/notifications/flush")
      await eventually(async () => ((await ordersOfCart(first.cart.id)).length ? true : undefined))
      await eventually(async () => ((await ordersOfCart(second.cart.id)).length ? true : undefined))
      await settle()
      expect(await ordersOfCart(first.cart.id)).toHaveLength(1)
      expect(await ordersOfCart(second.cart.id)).toHaveLength(1)
    })

    it("does not move a paid session back when a late notification of the declined attempt arrives", async () => {
      const { cart, session } = await openCheckout()
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, APPROVED)
      expect((await completeCart(api, publishableKey, cart.id)).type).toBe("order")
      const { notifications } = await simulator.control<{ notifications: Array<{ body: any }> }>(
        "GET",
        "/notifications",
      )
      const genuine = notifications.find(
        (notification) => notification.body.operation.orderId === session.data.order_id,
      )!.body
      // A replay of the genuine notification (right token) whose body now claims a decline.
      const replay = {
        ...genuine,
        eventId: crypto.randomUUID(),
        operation: { ...genuine.operation, operationResult: "DECLINED" },
      }
      await api.post("/hooks/payment/nexi_nexi", replay)
      await settle()
      expect((await sessionOf(session.id)).status).toBe("authorized")
    })

    it("changes nothing for a replayed token whose body claims success for a declined payment", async () => {
      const { cart, session } = await openCheckout()
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, DECLINED)
      await sessionReaches(session.id, "error")
      const { notifications } = await simulator.control<{ notifications: Array<{ body: any }> }>(
        "GET",
        "/notifications",
      )
      const genuine = notifications.find(
        (notification) => notification.body.operation.orderId === session.data.order_id,
      )!.body
      const lie = {
        ...genuine,
        eventId: crypto.randomUUID(),
        operation: { ...genuine.operation, operationType: "CAPTURE", operationResult: "EXECUTED" },
      }
      await api.post("/hooks/payment/nexi_nexi", lie)
      await settle()
      expect(await ordersOfCart(cart.id)).toEqual([])
      expect((await sessionOf(session.id)).status).toBe("error")
    })

    it("ignores notifications for unknown orders and bodies that are not notifications", async () => {
      const { cart, session } = await openCheckout()
      await api.post("/hooks/payment/nexi_nexi", {
        eventId: crypto.randomUUID(),
        eventTime: Date.now() / 1000,
        securityToken: "x",
        operation: { orderId: "UNKNOWN123", operationType: "CAPTURE", operationResult: "EXECUTED" },
      })
      await api.post("/hooks/payment/nexi_nexi", { hello: "world" })
      await settle()
      expect(await ordersOfCart(cart.id)).toEqual([])
      expect((await sessionOf(session.id)).status).toBe("pending")
    })

    it("records a refund made in the gateway's back office on the Medusa payment, without refunding twice", async () => {
      const { cart, session } = await openCheckout()
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, APPROVED)
      const completed = await completeCart(api, publishableKey, cart.id)
      const orderId = (completed as { order: { id: string } }).order.id
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const paymentOf = async () =>
        (
          await query.graph({
            entity: "order",
            fields: ["payment_collections.payments.id", "payment_collections.payments.refunds.*"],
            filters: { id: orderId },
          })
        ).data[0].payment_collections[0].payments[0]
      await capturePaymentWorkflow(container).run({ input: { payment_id: (await paymentOf()).id } })
      const paid = await simulator.gateway<{ operations: any[] }>(`/orders/${session.data.order_id}`)
      const capture = paid.operations.find((operation) => operation.operationType === "CAPTURE")

      // The back office refunds 5.00; the gateway settles it later and notifies.
      await simulator.control("POST", "/settings/refunds", { mode: "pending" })
      await simulator.gateway(`/operations/${capture.operationId}/refunds`, { amount: "500", currency: "EUR" })
      await simulator.control("POST", "/refunds/settle", {})

      const refunds = await eventually(async () => {
        const found = (await paymentOf()).refunds ?? []
        return found.length ? found : undefined
      })
      expect(refunds).toHaveLength(1)
      expect(refunds[0].amount).toBe(5)
      expect(refunds[0].metadata?.nexi_operation_id).toBeTruthy()
      const after = await simulator.gateway<{ operations: any[] }>(`/orders/${session.data.order_id}`)
      expect(after.operations.filter((operation) => operation.operationType === "REFUND")).toHaveLength(1)
    })
  },
})

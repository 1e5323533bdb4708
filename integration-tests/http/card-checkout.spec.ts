/**
 * The card provider end to end: a real Medusa store on PostgreSQL, the storefront's calls
 * through the store API, the shopper's payment on the simulator over HTTP (the hosted page, or
 * XPay Build's card fields filled through the fields' own endpoint, as the field pages send
 * them), notifications through Medusa's own webhook route, and staff actions through Medusa's
 * workflows.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { cancelOrderWorkflow, capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { confirmBuildCard } from "../support/checkout-kit"
import { simulatorForSuite } from "../support/simulator"
import {
  completeCart,
  createCart,
  createProduct,
  createRegion,
  eventually,
  NEXI_CARD_PROVIDER,
  seedStoreBasics,
  startPaymentSession,
  storeHeaders,
} from "../support/store"

jest.setTimeout(180_000)

const APPROVED = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const CHALLENGE = { pan: "4349940199004549", expiryDate: "1230", cvv: "396" }
const DECLINED = { pan: "5515931855858729", expiryDate: "1230", cvv: "123" }

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let regions: Record<"eur" | "jpy" | "kwd", string>
    let variantId: string

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      const basics = await seedStoreBasics(container)
      publishableKey = basics.publishableKey
      regions = {
        eur: (await createRegion(container, { name: "Italy", currency_code: "eur", countries: ["it"] })).id,
        jpy: (await createRegion(container, { name: "Japan", currency_code: "jpy", countries: ["jp"] })).id,
        kwd: (await createRegion(container, { name: "Kuwait", currency_code: "kwd", countries: ["kw"] })).id,
      }
      variantId = (
        await createProduct(container, basics.salesChannelId, [
          { currency_code: "eur", amount: 19.99 },
          { currency_code: "jpy", amount: 5000 },
          { currency_code: "kwd", amount: 1.234 },
        ])
      ).variantId
    })

    async function openCheckout(currency: "eur" | "jpy" | "kwd" = "eur", quantity = 1, data?: Record<string, unknown>) {
      const countryCode = { eur: "it", jpy: "jp", kwd: "kw" }[currency]
      const cart = await createCart(api, publishableKey, {
        regionId: regions[currency],
        variantId,
        quantity,
        countryCode,
      })
      const { session } = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER, data)
      return { cart, session }
    }

    async function pay(orderId: string, card: typeof APPROVED, extra: Record<string, unknown> = {}) {
      return simulator.control<{ result: string; redirectUrl: string | null }>("POST", `/hpp/${orderId}/pay`, {
        ...card,
        awaitNotification: true,
        ...extra,
      })
    }

    async function gatewayOrder(orderId: string) {
      return simulator.gateway<{ orderStatus: any; operations: any[] }>(`/orders/${orderId}`)
    }

    async function orderOfCart(cartId: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
      return data[0]?.order_id as string | undefined
    }

    async function paymentOfOrder(orderId: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "id",
          "payment_collections.payments.*",
          "payment_collections.payments.captures.*",
          "payment_collections.payments.refunds.*",
        ],
        filters: { id: orderId },
      })
      return data[0].payment_collections[0].payments[0]
    }

    async function sessionOf(sessionId: string) {
      const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId })
      return session
    }

    it("pays on the hosted page, completes the cart, captures part and refunds it down to zero", async () => {
      const { cart, session } = await openCheckout("eur", 2)
      expect(session.data.hosted_page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
      expect(session.data.amount_minor).toBe("3998")
      expect(JSON.stringify(session.data)).not.toMatch(/securityToken|security_token"/)
      expect(session.data.nexi_cart).toBeUndefined()

      const created = await gatewayOrder(session.data.order_id)
      expect(created.orderStatus.order).toMatchObject({ amount: "3998", currency: "EUR", customField: session.id })
      expect(created.orderStatus.order.customerInfo).toMatchObject({
        cardHolderEmail: "giulia@example.com",
        billingAddress: { country: "ITA", city: "Milano" },
        shippingAddress: { country: "ITA" },
      })

      await pay(session.data.order_id, CHALLENGE)
      const completed = await completeCart(api, publishableKey, cart.id)
      expect(completed.type).toBe("order")
      const orderId = (completed as { order: { id: string } }).order.id
      const payment = await paymentOfOrder(orderId)
      expect(payment.captured_at).toBeNull()

      await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 25.5 } })
      expect((await gatewayOrder(session.data.order_id)).orderStatus.capturedAmount).toBe("2550")

      await refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 10.25 } })
      await refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 15.25 } })
      const refunded = await gatewayOrder(session.data.order_id)
      const refunds = refunded.operations.filter((operation) => operation.operationType === "REFUND")
      expect(refunds.map((operation) => operation.operationAmount).sort()).toEqual(["1025", "1525"])

      const overRefund = await refundPaymentWorkflow(container).run({
        input: { payment_id: payment.id, amount: 0.01 },
        throwOnError: false,
      })
      expect(JSON.stringify(overRefund.errors)).toMatch(/refund/i)
      const afterRefusal = await gatewayOrder(session.data.order_id)
      expect(afterRefusal.operations.filter((operation) => operation.operationType === "REFUND")).toHaveLength(2)
    })

    it("refuses a second capture with a clear message and keeps Medusa's captures as they were", async () => {
      const { cart, session } = await openCheckout("eur", 2)
      await pay(session.data.order_id, APPROVED)
      const orderId = ((await completeCart(api, publishableKey, cart.id)) as { order: { id: string } }).order.id
      const payment = await paymentOfOrder(orderId)
      await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 10 } })
      const second = await capturePaymentWorkflow(container).run({
        input: { payment_id: payment.id, amount: 5 },
        throwOnError: false,
      })
      expect(second.errors.map((failure) => failure.error.message).join(" ")).toMatch(/one capture per authorization/)
      const after = await paymentOfOrder(orderId)
      expect(after.captures).toHaveLength(1)
      expect((await gatewayOrder(session.data.order_id)).orderStatus.capturedAmount).toBe("1000")
    })

    it("voids an uncaptured authorization when the order is cancelled", async () => {
      const { cart, session } = await openCheckout()
      await pay(session.data.order_id, APPROVED)
      const orderId = ((await completeCart(api, publishableKey, cart.id)) as { order: { id: string } }).order.id
      await cancelOrderWorkflow(container).run({ input: { order_id: orderId } })
      const voided = await gatewayOrder(session.data.order_id)
      expect(
        voided.operations.some(
          (operation) => operation.operationType === "VOID" && operation.operationResult === "VOIDED",
        ),
      ).toBe(true)
    })

    it("cancels a capture at the gateway when a captured payment is cancelled", async () => {
      const { cart, session } = await openCheckout()
      await pay(session.data.order_id, APPROVED)
      const orderId = ((await completeCart(api, publishableKey, cart.id)) as { order: { id: string } }).order.id
      const payment = await paymentOfOrder(orderId)
      await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id } })
      await container.resolve(Modules.PAYMENT).cancelPayment(payment.id)
      const cancelled = await gatewayOrder(session.data.order_id)
      expect(cancelled.operations.some((operation) => operation.operationType === "CANCEL")).toBe(true)
      expect(cancelled.orderStatus.capturedAmount).toBe("0")
    })

    it.each([
      ["jpy", "5000"],
      ["kwd", "1234"],
      ["eur", "1999"],
    ] as const)("sends exact minor units for %s", async (currency, minor) => {
      const { cart, session } = await openCheckout(currency)
      expect((await gatewayOrder(session.data.order_id)).orderStatus.order.amount).toBe(minor)
      await pay(session.data.order_id, APPROVED)
      const completed = await completeCart(api, publishableKey, cart.id)
      expect(completed.type).toBe("order")
      const payment = await paymentOfOrder((completed as { order: { id: string } }).order.id)
      await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id } })
      expect((await gatewayOrder(session.data.order_id)).orderStatus.capturedAmount).toBe(minor)
    })

    it("completes the cart from the notification alone, once, even when it is delivered twice", async () => {
      await simulator.control("POST", "/faults/notifications", { copies: 2 })
      const { cart, session } = await openCheckout()
      await pay(session.data.order_id, APPROVED)
      const orderId = await eventually(() => orderOfCart(cart.id))
      await new Promise((resolve) => setTimeout(resolve, 7_000)) // let the duplicate's delayed event run too
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cart.id } })
      expect(data.map((row: { order_id: string }) => row.order_id)).toEqual([orderId])
      expect((await sessionOf(session.id)).status).toBe("authorized")
      // The shopper returns after the notification: completing again yields the same order.
      const again = await completeCart(api, publishableKey, cart.id)
      expect((again as { order: { id: string } }).order.id).toBe(orderId)
    })

    it("shows a decline on the session and lets the shopper pay again", async () => {
      const { cart, session } = await openCheckout()
      await pay(session.data.order_id, DECLINED)
      const declined = await eventually(async () => {
        const current = await sessionOf(session.id)
        return current.status === "error" ? current : undefined
      })
      expect(declined.data.reason).toMatch(/declined/i)
      const refused = await api
        .post(`/store/carts/${cart.id}/complete`, {}, storeHeaders(publishableKey))
        .catch((error: { response: { status: number; data: unknown } }) => error.response)
      expect(JSON.stringify(refused.data)).toMatch(/not authorized|declined|error|sessions are required/i)

      const retry = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER)
      expect(retry.session.data.order_id).not.toBe(session.data.order_id)
      await pay(retry.session.data.order_id, APPROVED)
      expect((await completeCart(api, publishableKey, cart.id)).type).toBe("order")
    })

    it("ignores a forged notification that claims success for an unpaid order", async () => {
      const { cart, session } = await openCheckout()
      const forged = {
        eventId: crypto.randomUUID(),
        eventTime: new Date().toISOString(),
        securityToken: "not-the-token",
        operation: {
          orderId: session.data.order_id,
          operationType: "CAPTURE",
          operationResult: "EXECUTED",
          operationAmount: "1999",
        },
      }
      await api.post("/hooks/payment/nexi_nexi", forged)
      await new Promise((resolve) => setTimeout(resolve, 7_000))
      expect(await orderOfCart(cart.id)).toBeUndefined()
      expect((await sessionOf(session.id)).status).toBe("pending")
    })

    it("completes a paid cart whose notification was lost, through the reconciliation", async () => {
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      const { cart, session } = await openCheckout()
      await pay(session.data.order_id, APPROVED)
      expect(await orderOfCart(cart.id)).toBeUndefined()
      const future = new Date(Date.now() + 10 * 60 * 1000)
      const summary = await reconcilePendingSessions(container, future)
      expect(summary.outcomes.completed).toBe(1)
      expect(await eventually(() => orderOfCart(cart.id))).toBeDefined()
    })

    describe("XPay Build: the card typed in the checkout's fields", () => {
      const fillFields = (buildSessionId: string, card: typeof APPROVED) =>
        confirmBuildCard(simulator.url, buildSessionId, card)

      function finalize(sessionId: string, cartId: string) {
        return api
          .post(`/store/nexi/payment-sessions/${sessionId}/finalize`, { cart_id: cartId }, storeHeaders(publishableKey))
          .catch((error: { response: { status: number; data: any } }) => error.response)
      }

      it("pays once, is settled by the notification, completes the cart and captures", async () => {
        const { cart, session } = await openCheckout("eur", 1, { integration: "build" })
        expect(session.data.hosted_page).toBeUndefined()
        expect(session.data.build_fields.map((field: { id: string }) => field.id)).toContain("CARD_NUMBER")
        expect(session.data.build_sdk).toBe(`${simulator.url}/monetaweb/resources/hfsdk.js`)
        expect(session.data.security_token_hash).toMatch(/^[0-9a-f]{64}$/)
        expect(JSON.stringify(session.data)).not.toMatch(/securityToken|security_token"/)

        const early = await finalize(session.id, cart.id)
        expect(early.status).toBe(400)
        expect(early.data.message).toMatch(/READY_FOR_PAYMENT/)

        await fillFields(session.data.build_session_id, APPROVED)
        expect((await finalize(session.id, cart.id)).data).toEqual({ next: "complete_cart" })
        // A second finalize sends nothing and answers the same.
        expect((await finalize(session.id, cart.id)).data).toEqual({ next: "complete_cart" })
        const paid = await gatewayOrder(session.data.order_id)
        expect(paid.operations.map((operation) => operation.operationResult)).toEqual([
          "THREEDS_VALIDATED",
          "AUTHORIZED",
        ])

        // The notification alone completes the cart, as for a hosted payment; the page's completion finds the order.
        const orderId = await eventually(() => orderOfCart(cart.id))
        expect(((await completeCart(api, publishableKey, cart.id)) as { order: { id: string } }).order.id).toBe(orderId)
        const afterCompletion = await finalize(session.id, cart.id)
        expect(afterCompletion.status).toBe(409)
        expect(afterCompletion.data.message).toMatch(/already completed/)

        const payment = await paymentOfOrder(orderId)
        await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id } })
        expect((await gatewayOrder(session.data.order_id)).orderStatus.capturedAmount).toBe("1999")
      })

      it("refuses another cart's session and a cart whose total changed, sending nothing", async () => {
        const { cart, session } = await openCheckout("eur", 1, { integration: "build" })
        const other = await openCheckout("eur", 1, { integration: "build" })
        await fillFields(session.data.build_session_id, APPROVED)

        const foreign = await finalize(session.id, other.cart.id)
        expect(foreign.status).toBe(404)
        const badBody = await finalize(session.id, "not-a-cart")
        expect(badBody.status).toBe(400)
        expect(badBody.data.message).toMatch(/cart_id: must be a cart id/)

        await api.post(
          `/store/carts/${cart.id}/line-items`,
          { variant_id: variantId, quantity: 1 },
          storeHeaders(publishableKey),
        )
        const changed = await finalize(session.id, cart.id)
        expect(changed.status).toBe(409)
        expect(changed.data.message).toMatch(/start a new payment session/)
        expect((await gatewayOrder(session.data.order_id)).operations).toEqual([])
      })

      it("refuses a finalize after the cart was completed by another session: the card confirmed in the fields is never charged", async () => {
        const { cart, session } = await openCheckout("eur", 1, { integration: "build" })
        await fillFields(session.data.build_session_id, APPROVED)
        // The shopper turned to the hosted page instead (Medusa deletes the Build session) and paid there.
        const hosted = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER)
        await pay(hosted.session.data.order_id, APPROVED)
        expect((await completeCart(api, publishableKey, cart.id)).type).toBe("order")

        const late = await finalize(session.id, cart.id)
        expect(late.status).toBe(409)
        expect(late.data.message).toBe(`Cart ${cart.id} is already completed: there is nothing to pay.`)
        expect((await gatewayOrder(session.data.order_id)).operations).toEqual([])
        const state = await simulator.gateway<{ state: string }>(
          `/build/state?sessionId=${encodeURIComponent(session.data.build_session_id)}`,
        )
        expect(state.state).toBe("READY_FOR_PAYMENT")
      })

      it("sends the shopper to the 3-D Secure challenge, and says why a declined card did not pay", async () => {
        const challenged = await openCheckout("eur", 1, { integration: "build" })
        await fillFields(challenged.session.data.build_session_id, CHALLENGE)
        const redirect = (await finalize(challenged.session.id, challenged.cart.id)).data
        expect(redirect).toEqual({ next: "redirect", url: expect.stringContaining("/challenge?token=") })

        const declined = await openCheckout("eur", 1, { integration: "build" })
        await fillFields(declined.session.data.build_session_id, DECLINED)
        const answer = (await finalize(declined.session.id, declined.cart.id)).data
        expect(answer).toEqual({ next: "declined", reason: expect.stringMatching(/declined/i) })
      })
    })
  },
})

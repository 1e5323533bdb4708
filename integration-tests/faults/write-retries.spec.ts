/**
 * Issue 8, retries: the simulator executes a write and then loses the answer (the connection
 * hangs until the plugin's timeout, or is reset). The plugin retries with the same
 * idempotency key, and the simulator must show exactly one operation for each.
 *
 * Faults use phase "after" (docs/simulator.md): the request is executed, then the answer is
 * replaced by the failure. A hang costs the provider's timeoutMs (15 s by default) once.
 * The MOTO payment goes through the admin route POST /admin/nexi/moto (docs/admin-api.md).
 */
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { adminHeaders } from "../support/admin-auth"
import { CARDS, CheckoutKit, UNIT_PRICE } from "../support/checkout-kit"
import { simulatorForSuite } from "../support/simulator"
import { ADDRESS, createCart, eventually, startPaymentSession, storeHeaders } from "../support/store"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const APM_REFUNDS = "/apm/ms/aapay/v2/transaction/refund/initializeWithIdempotency"
/** A consumer the simulator leaves waiting until the test approves in their place. */
const WAITING_CONSUMER = "+4712345678"

type Recorded = Awaited<ReturnType<CheckoutKit["requests"]>>

/** Two attempts of one logical write: the first lost its answer, the retry carried the same key. */
function expectRetriedOnce(attempts: Recorded, lostBy: "hang" | "reset") {
  expect(attempts.map(({ status, fault }) => ({ status, fault }))).toEqual([
    { status: 0, fault: lostBy },
    { status: expect.any(Number), fault: undefined },
  ])
  expect(attempts[1].status).toBeLessThan(300)
  expect(attempts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
  expect(attempts[1].idempotencyKey).toBe(attempts[0].idempotencyKey)
}

function loseAnswerOnce(method: string, path: string, action: "hang" | "reset") {
  return simulator.control("POST", "/faults", {
    match: { method, path },
    times: 1,
    phase: "after",
    action: { type: action },
  })
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
    })

    async function paidCardOrder() {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      return { checkout, orderId: completed.body.order.id as string, payment }
    }

    it("captures once when the gateway captured but the answer never came (timeout)", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await loseAnswerOnce("POST", `${GATEWAY}/operations/*/captures`, "hang")

      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 12.5 } })

      expectRetriedOnce(await kit.requests("POST", `${GATEWAY}/operations/*/captures`), "hang")
      expect(await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).toHaveLength(1)
      expect((await kit.gatewayOrder(checkout.orderId)).orderStatus.capturedAmount).toBe("1250")
      const [captured] = await kit.paymentsOfOrder(orderId)
      expect(captured.captures.map((capture) => Number(capture.amount))).toEqual([12.5])
    })

    it("refunds once when the gateway refunded but the connection was reset", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      await loseAnswerOnce("POST", `${GATEWAY}/operations/*/refunds`, "reset")

      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 5 } })

      expectRetriedOnce(await kit.requests("POST", `${GATEWAY}/operations/*/refunds`), "reset")
      const refunds = await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")
      expect(refunds.map((refund) => refund.operationAmount)).toEqual(["500"])
      const [refunded] = await kit.paymentsOfOrder(orderId)
      expect(refunded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
    })

    it("refunds a mobile payment once when the service refunded but the answer never came (timeout)", async () => {
      const cart = await createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
      const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, "pp_nexi-apm-psp-b_nexi", {
        consumer_id: WAITING_CONSUMER,
      })
      const paymentTransaction = Number(session.data.transaction_id)
      await simulator.control("POST", `/apm/${paymentTransaction}/approve`)
      const orderId = await eventually(async () => {
        const { data } = await api.get(
          `/store/nexi/payment-sessions/${session.id}?cart_id=${cart.id}`,
          storeHeaders(kit.publishableKey),
        )
        return data.order_id as string | undefined
      })
      const [payment] = await kit.paymentsOfOrder(orderId)
      await loseAnswerOnce("POST", APM_REFUNDS, "hang")

      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 5 } })

      expectRetriedOnce(await kit.requests("POST", APM_REFUNDS), "hang")
      const [refunded] = await kit.paymentsOfOrder(orderId)
      expect(refunded.data.refund_transaction_ids).toEqual([String(paymentTransaction + 1)])
      expect(
        (await simulator.apmTransaction(paymentTransaction + 1)).response?.request?.transaction?.amount?.totalAmount,
      ).toBe(500)
      // Transaction ids count up one by one: a second refund would have taken the next one.
      await expect(simulator.apmTransaction(paymentTransaction + 2)).rejects.toThrow(/answered 404/)
    })

    it("charges a card taken by phone (MOTO) once when the gateway charged it but the connection was reset", async () => {
      const staff = await adminHeaders(getContainer(), api)
      const { data: draft } = await api.post(
        "/admin/draft-orders",
        {
          email: "giulia@example.com",
          region_id: kit.regionId,
          sales_channel_id: kit.salesChannelId,
          items: [{ variant_id: kit.variantId, quantity: 2 }],
          shipping_address: ADDRESS,
          billing_address: ADDRESS,
        },
        staff,
      )
      await loseAnswerOnce("POST", `${GATEWAY}/orders/moto`, "reset")

      const { data: paid } = await api.post(
        "/admin/nexi/moto",
        { draft_order_id: draft.draft_order.id, card: CARDS.approved },
        staff,
      )

      const attempts = await kit.requests("POST", `${GATEWAY}/orders/moto`)
      expect(attempts[0]).toMatchObject({ status: 0, fault: "reset" })
      // The retry carries the same key; the gateway knows the order id and refuses to charge it again.
      expect(attempts.map((attempt) => attempt.idempotencyKey)).toEqual([
        attempts[0].idempotencyKey,
        attempts[0].idempotencyKey,
      ])
      const gatewayOrderId = paid.payment.gateway_order_id
      expect(
        (await kit.gatewayOrder(gatewayOrderId)).operations.map(
          (operation) => `${operation.operationType}/${operation.operationResult}`,
        ),
      ).toEqual(["AUTHORIZATION/AUTHORIZED"])
      const payments = await kit.paymentsOfOrder(draft.draft_order.id)
      expect(payments.map((payment) => Number(payment.amount))).toEqual([2 * UNIT_PRICE.major])
      expect(payments[0].data).toMatchObject({ order_id: gatewayOrderId, status: "authorized" })
    })
  },
})

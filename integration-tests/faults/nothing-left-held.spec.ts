/**
 * Nothing is left held for the shopper once a payment the gateway holds is cancelled. The
 * gateway takes one capture per authorization, and cancelling a capture gives the
 * authorization back, capturable: an order cancelled after a capture Medusa did not know of
 * (made in Nexi's back office here), and a full capture cancelled by staff, must end with that
 * authorization voided too, unless staff keep it to capture again.
 */
import { Modules } from "@medusajs/framework/utils"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { cancelCapture } from "../../src/staff/payment-actions"
import { CARDS, CheckoutKit, UNIT_PRICE } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { simulatorForSuite } from "../support/simulator"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      await holdReconcileLock(getContainer(), "nothing-left-held-suite")
    })

    async function paidCardOrder() {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      return { checkout, orderId: completed.body.order.id as string, payment }
    }

    /** A full capture made in Nexi's back office: Medusa does not know of it. */
    async function capturedInBackOffice(gatewayOrderId: string) {
      const [authorization] = await kit.gatewayOperations(gatewayOrderId, "AUTHORIZATION", "AUTHORIZED")
      await simulator.gateway(`/operations/${authorization.operationId}/captures`, {
        amount: UNIT_PRICE.minor,
        currency: "EUR",
      })
      const [capture] = await kit.gatewayOperations(gatewayOrderId, "CAPTURE", "EXECUTED")
      return capture.operationId as string
    }

    async function heldAtGateway(gatewayOrderId: string) {
      const { orderStatus, operations } = await kit.gatewayOrder(gatewayOrderId)
      return {
        authorized: orderStatus.authorizedAmount,
        captured: orderStatus.capturedAmount,
        // The 3-D Secure step of the payment aside: only what moved money.
        operations: operations
          .filter((operation) => operation.operationResult !== "THREEDS_VALIDATED")
          .map((operation) => `${operation.operationType}/${operation.operationResult}`),
      }
    }

    it("voids the authorization a cancelled back-office capture gives back when the order is cancelled", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await capturedInBackOffice(checkout.orderId)

      const run = await cancelOrderWorkflow(getContainer()).run({ input: { order_id: orderId }, throwOnError: false })
      expect(run.errors ?? []).toEqual([])

      expect(await heldAtGateway(checkout.orderId)).toEqual({
        authorized: "0",
        captured: "0",
        operations: ["AUTHORIZATION/AUTHORIZED", "CAPTURE/EXECUTED", "CANCEL/EXECUTED", "VOID/VOIDED"],
      })
      const [cancelled] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(cancelled.canceled_at).not.toBeNull()
      // A second cancel (Medusa retrying) sends nothing more.
      const sent = (await kit.requests("POST", "/api/phoenix-0.0/psp/api/v1/operations/*/refunds")).length
      await getContainer().resolve(Modules.PAYMENT).cancelPayment(payment.id)
      expect(await kit.requests("POST", "/api/phoenix-0.0/psp/api/v1/operations/*/refunds")).toHaveLength(sent)
    })

    it("voids the authorization when staff cancel a full capture, and says so", async () => {
      const { checkout, payment } = await paidCardOrder()
      const captureId = await capturedInBackOffice(checkout.orderId)

      const answer = await cancelCapture(getContainer(), {
        paymentId: payment.id,
        operationId: captureId,
        reason: "Captured by mistake",
      })

      expect(await heldAtGateway(checkout.orderId)).toMatchObject({ authorized: "0", captured: "0" })
      expect((await heldAtGateway(checkout.orderId)).operations).toContain("VOID/VOIDED")
      expect(answer.message).toMatch(/Voided the authorization the cancel gave back \(operation \d+\)\.$/)
    })

    it("cancels the capture once when staff cancel it while the order is cancelled: both succeed, nothing is left held", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      const captureId = await capturedInBackOffice(checkout.orderId)
      // The first cancel to reach the gateway waits there; the other overtakes it and is made,
      // so the first is refused ("already cancelled") although the cancel stands.
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: "/api/phoenix-0.0/psp/api/v1/operations/*/cancels" },
        times: 1,
        action: { type: "latency", ms: 400 },
      })

      const [order, staff] = await Promise.allSettled([
        cancelOrderWorkflow(getContainer()).run({ input: { order_id: orderId }, throwOnError: false }),
        cancelCapture(getContainer(), { paymentId: payment.id, operationId: captureId, reason: "Captured by mistake" }),
      ])

      expect(order.status === "fulfilled" && (order.value.errors ?? [])).toEqual([])
      expect(staff).toMatchObject({ status: "fulfilled" })
      expect(await heldAtGateway(checkout.orderId)).toEqual({
        authorized: "0",
        captured: "0",
        operations: ["AUTHORIZATION/AUTHORIZED", "CAPTURE/EXECUTED", "CANCEL/EXECUTED", "VOID/VOIDED"],
      })
    })

    it("keeps the authorization to capture again when staff ask for it", async () => {
      const { checkout, payment } = await paidCardOrder()
      const captureId = await capturedInBackOffice(checkout.orderId)

      const answer = await cancelCapture(getContainer(), {
        paymentId: payment.id,
        operationId: captureId,
        reason: "Capture again tomorrow",
        keepAuthorization: true,
      })

      expect(await heldAtGateway(checkout.orderId)).toEqual({
        authorized: UNIT_PRICE.minor,
        captured: "0",
        operations: ["AUTHORIZATION/AUTHORIZED", "CAPTURE/EXECUTED", "CANCEL/EXECUTED"],
      })
      expect(answer.message).toMatch(/The authorization stays held, to capture again\.$/)
    })
  },
})

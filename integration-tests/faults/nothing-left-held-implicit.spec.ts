/**
 * captureType IMPLICIT: the capture is the payment, and cancelling it gives the authorization
 * back, capturable, as after an EXPLICIT capture. The gateway order then must read as
 * authorized (src/core/card/card-order.ts), not as pending: read as pending, a cancel of the payment
 * found nothing to void and left the shopper's money held, and the admin offered no capture.
 * The store boots with NEXI_CAPTURE_TYPE=IMPLICIT, so this needs its own process.
 */
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { cancelCapture } from "../../src/staff/payment-actions"
import { CARDS, CheckoutKit, UNIT_PRICE } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { simulatorForSuite } from "../support/simulator"

jest.setTimeout(5 * 60_000)

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
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      await holdReconcileLock(getContainer(), "nothing-left-held-implicit-suite")
    })

    /** A paid order: at the gateway one CAPTURE/EXECUTED, in Medusa a captured payment. */
    async function paidCardOrder() {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      const [capture] = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      return { checkout, payment, captureId: capture.operationId as string }
    }

    async function heldAtGateway(gatewayOrderId: string) {
      const { orderStatus, operations } = await kit.gatewayOrder(gatewayOrderId)
      return {
        authorized: orderStatus.authorizedAmount,
        captured: orderStatus.capturedAmount,
        operations: operations
          .filter((operation) => operation.operationResult !== "THREEDS_VALIDATED")
          .map((operation) => `${operation.operationType}/${operation.operationResult}`),
      }
    }

    it("voids the authorization a capture cancelled in Nexi's back office gave back when the payment is cancelled", async () => {
      const { checkout, payment, captureId } = await paidCardOrder()
      await simulator.gateway(`/operations/${captureId}/cancels`, { description: "Cancelled in the back office" })
      expect(await heldAtGateway(checkout.orderId)).toMatchObject({ authorized: UNIT_PRICE.minor, captured: "0" })

      await getContainer().resolve(Modules.PAYMENT).cancelPayment(payment.id)

      expect(await heldAtGateway(checkout.orderId)).toEqual({
        authorized: "0",
        captured: "0",
        operations: ["CAPTURE/EXECUTED", "CANCEL/EXECUTED", "VOID/VOIDED"],
      })
    })

    it("offers staff the capture again when they cancel an IMPLICIT capture and keep its authorization", async () => {
      const { checkout, payment, captureId } = await paidCardOrder()

      const answer = await cancelCapture(getContainer(), {
        paymentId: payment.id,
        operationId: captureId,
        reason: "Capture again tomorrow",
        keepAuthorization: true,
      })

      expect(await heldAtGateway(checkout.orderId)).toMatchObject({ authorized: UNIT_PRICE.minor, captured: "0" })
      expect(answer.payment).toMatchObject({
        kind: "card",
        authorized: { amount: "19.99", currency: "EUR" },
        captured: { amount: "0.00", currency: "EUR" },
        capturable: { amount: "19.99", currency: "EUR" },
        refundable: null,
      })
    })
  },
})

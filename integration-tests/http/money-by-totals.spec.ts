/**
 * Money by totals on a real Medusa and the simulator: what a capture or refund sends is the
 * rounded total after it minus the rounded total before it (src/money/amount.ts,
 * minorUnitsToSend), so the gateway holds Medusa's rounded totals after any sequence of
 * partial operations, where rounding each amount on its own drifts by a cent per operation.
 */

import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import BigNumber from "bignumber.js"
import { adminHeaders } from "../support/admin-auth"
import { CARDS, CheckoutKit } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { simulatorForSuite } from "../support/simulator"
import { createCart, createProduct, NEXI_CARD_PROVIDER, startPaymentSession } from "../support/store"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

/** Medusa's amounts added exactly, as the plugin adds them (never in floating point). */
const sum = (amounts: Array<number | string>) => BigNumber.sum(0, ...amounts.map(String))

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      await holdReconcileLock(getContainer(), "money-by-totals-suite")
    })

    /** A card order of `quantity` items at `price` (EUR), paid on the hosted page and completed. */
    async function paidOrder(price?: number, quantity = 1) {
      let checkout = { cartId: "", orderId: "" }
      if (price === undefined) {
        checkout = await kit.openCardCheckout()
      } else {
        const { variantId } = await createProduct(
          getContainer(),
          kit.salesChannelId,
          [{ currency_code: "eur", amount: price }],
          `Cup ${price}`,
        )
        const cart = await createCart(api, kit.publishableKey, {
          regionId: kit.regionId,
          variantId,
          quantity,
          email: "totals@example.com",
        })
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, NEXI_CARD_PROVIDER)
        checkout = { cartId: cart.id, orderId: session.data.order_id }
      }
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      return {
        gatewayOrderId: checkout.orderId,
        medusaOrderId: completed.body.order.id as string,
        paymentId: payment.id,
      }
    }

    const amountsOf = async (gatewayOrderId: string, type: string, result: string) =>
      (await kit.gatewayOperations(gatewayOrderId, type, result)).map((operation) => operation.operationAmount)

    it("refunds 1.005 EUR twice as 101 + 100: the gateway refunds 2.01, as Medusa shows", async () => {
      const { gatewayOrderId, medusaOrderId, paymentId } = await paidOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId } })
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId, amount: 1.005 } })
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId, amount: 1.005 } })

      expect(await amountsOf(gatewayOrderId, "REFUND", "REFUNDED")).toEqual(["101", "100"])
      const [payment] = await kit.paymentsOfOrder(medusaOrderId)
      expect(sum(payment.refunds.map((refund) => refund.amount)).toString()).toBe("2.01")
    })

    it("charges 3 x 12.688 as 3806 and takes three refunds of 12.688 as 1269 + 1269 + 1268, the last one too", async () => {
      const { gatewayOrderId, medusaOrderId, paymentId } = await paidOrder(12.688, 3)
      expect((await kit.gatewayOrder(gatewayOrderId)).orderStatus.authorizedAmount).toBe("3806")
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId } })
      expect(await amountsOf(gatewayOrderId, "CAPTURE", "EXECUTED")).toEqual(["3806"])

      for (let refund = 0; refund < 3; refund += 1) {
        await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId, amount: 12.688 } })
      }

      expect(await amountsOf(gatewayOrderId, "REFUND", "REFUNDED")).toEqual(["1269", "1269", "1268"])
      const [payment] = await kit.paymentsOfOrder(medusaOrderId)
      expect(payment.refunds.map((refund) => Number(refund.amount))).toEqual([12.688, 12.688, 12.688])
    })

    it("captures part of 38.064 by its rounded total: 12.688 as 1269", async () => {
      const { gatewayOrderId, paymentId } = await paidOrder(12.688, 3)
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId, amount: 12.688 } })
      expect(await amountsOf(gatewayOrderId, "CAPTURE", "EXECUTED")).toEqual(["1269"])
    })

    it("captures 1.005 again after staff cancelled its first capture of 1.005 as 100: Medusa nets 1.00, the gateway holds 100", async () => {
      const { gatewayOrderId, medusaOrderId, paymentId } = await paidOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId, amount: 1.005 } })
      const [first] = await kit.gatewayOperations(gatewayOrderId, "CAPTURE", "EXECUTED")
      expect(first.operationAmount).toBe("101")
      const staff = await adminHeaders(getContainer(), api)
      await api.post(
        `/admin/nexi/payments/${paymentId}/cancel-capture`,
        { operation_id: first.operationId, reason: "Wrong amount" },
        staff,
      )

      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: paymentId, amount: 1.005 } })

      const live = (await kit.gatewayOrder(gatewayOrderId)).orderStatus.capturedAmount
      expect(live).toBe("100")
      const [payment] = await kit.paymentsOfOrder(medusaOrderId)
      // By totals, as the plugin sends: the rounded captured total minus the rounded refunded one.
      const rounded = (amounts: number[]) => sum(amounts).times(100).integerValue(BigNumber.ROUND_HALF_UP)
      const net = rounded(payment.captures.map((capture) => capture.amount)).minus(
        rounded(payment.refunds.map((refund) => refund.amount)),
      )
      expect(net.toString()).toBe(live)
    })
  },
})

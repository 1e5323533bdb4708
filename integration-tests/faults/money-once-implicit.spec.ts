/**
 * captureType IMPLICIT: a payment on a hosted page no live session owns is captured at the
 * gateway the moment the shopper pays, so the plugin releases it with a refund of the whole
 * capture (`releaseUnowned`, core/card/card-sync.ts), once, whether the notification or the reconciliation job finds
 * it. The store boots with NEXI_CAPTURE_TYPE=IMPLICIT, so this needs its own process.
 */
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { CARDS, CheckoutKit, UNIT_PRICE } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { expectBooksAgree, gatewayBooks } from "../support/money-books"
import { simulatorForSuite } from "../support/simulator"
import { eventually, NEXI_CARD_PROVIDER, startPaymentSession } from "../support/store"
import { suiteOutput } from "../support/suite-output"

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
      await holdReconcileLock(getContainer(), "money-once-implicit-suite")
    })

    const ledger = () => getContainer().resolve<PaymentLedger>("nexi_ledger")

    async function expectRefundedOnce(gatewayOrderId: string) {
      const attempt = await eventually(
        async () => {
          const found = await ledger().findAttempt(gatewayOrderId)
          return found?.state === "released" ? found : undefined
        },
        { timeoutMs: 30_000 },
      )
      expect(attempt.note).toMatch(/refunded automatically/)
      const releases = (await ledger().writesOf(gatewayOrderId)).filter((write) => write.origin === "release")
      expect(
        releases.map((write) => ({ kind: write.kind, outcome: write.outcome, amount: write.amount_minor })),
      ).toEqual([{ kind: "refund", outcome: "executed", amount: UNIT_PRICE.minor }])
      expect(
        (await kit.gatewayOperations(gatewayOrderId, "REFUND", "REFUNDED")).map((refund) => refund.operationAmount),
      ).toEqual([UNIT_PRICE.minor])
      // Nobody owns this money: the gateway gave all of it back.
      expect(await gatewayBooks(kit, gatewayOrderId)).toEqual({ capturedMinor: 1999, refundedMinor: 1999 })
    }

    it("refunds a captured payment on a deleted session's page on its notification; the cart still pays on a new page", async () => {
      const checkout = await kit.openCardCheckout()
      await getContainer().resolve(Modules.PAYMENT).deletePaymentSession(checkout.sessionId)
      const logFrom = suiteOutput().chunks().length

      const paid = await kit.pay(checkout.orderId, CARDS.approved, true)
      expect(paid.result).toBe("EXECUTED")

      await expectRefundedOnce(checkout.orderId)
      expect(suiteOutput().textSince(logFrom)).toMatch(
        /nexi: payment on a hosted order whose payment session was deleted, refunded/,
      )
      expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])

      // The storefront starts a new session on the same cart; it pays and becomes the order.
      const { session: renewed } = await startPaymentSession(
        api,
        kit.publishableKey,
        checkout.cartId,
        NEXI_CARD_PROVIDER,
      )
      await kit.pay(renewed.data.order_id, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      expect(await expectBooksAgree(kit, renewed.data.order_id, completed.body.order.id)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 0,
      })
    })

    it("refunds a captured payment on a superseded page whose notification was dropped, in one reconciliation run", async () => {
      const checkout = await kit.openCardCheckout()
      const session = await kit.session(checkout.sessionId)
      const updated = await getContainer()
        .resolve(Modules.PAYMENT)
        .updatePaymentSession({
          id: session.id,
          amount: 2 * UNIT_PRICE.major,
          currency_code: session.currency_code,
          data: session.data,
        })
      expect((updated.data as { order_id: string }).order_id).not.toBe(checkout.orderId)
      await simulator.control("POST", "/faults/notifications", { drop: 1 })

      await kit.pay(checkout.orderId, CARDS.approved, true)
      expect((await ledger().findAttempt(checkout.orderId))?.state).toBe("superseded")

      const summary = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))
      expect(summary.outcomes.failed).toBeUndefined()
      await expectRefundedOnce(checkout.orderId)
      // Read again later: nothing more is sent.
      await reconcilePendingSessions(getContainer(), new Date(Date.now() + 20 * 60_000))
      expect(await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).toHaveLength(1)
    })

    it("leaves nothing held when Medusa cancels a captured payment: the cancel's restored authorization is voided too", async () => {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)

      // What Medusa calls when it undoes a payment it could not record.
      await getContainer().resolve(Modules.PAYMENT).cancelPayment(payment.id)

      const { orderStatus, operations } = await kit.gatewayOrder(checkout.orderId)
      const moved = operations.filter((operation) => operation.operationResult !== "THREEDS_VALIDATED")
      expect(moved.map((operation) => `${operation.operationType}/${operation.operationResult}`)).toEqual([
        "CAPTURE/EXECUTED",
        "CANCEL/EXECUTED",
        "VOID/VOIDED",
      ])
      expect([orderStatus.authorizedAmount, orderStatus.capturedAmount]).toEqual(["0", "0"])
      expect((await ledger().writesOf(checkout.orderId)).map((write) => `${write.kind}/${write.outcome}`)).toEqual([
        "cancel_capture/executed",
        "void/executed",
      ])
    })
  },
})

/**
 * Money moves once, whatever is lost: the ledger (src/modules/nexi-ledger) records every money
 * write before it is sent and settles it afterwards. Here answers are lost for good (every
 * transport attempt, phase "after"), the gateway cannot be read while the plugin settles, a
 * Medusa record the provider needs cannot be read, and shoppers pay on hosted pages no live
 * session owns any more. Every test ends by checking that the gateway and Medusa hold the same
 * captured and refunded amounts.
 */
import { Modules } from "@medusajs/framework/utils"
import { cancelOrderWorkflow, capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { CARDS, CheckoutKit, UNIT_PRICE } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { expectBooksAgree, gatewayBooks } from "../support/money-books"
import { simulatorForSuite } from "../support/simulator"
import { eventually, NEXI_CARD_PROVIDER, startPaymentSession, storeHeaders } from "../support/store"
import { suiteOutput } from "../support/suite-output"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const REFUNDS = `${GATEWAY}/operations/*/refunds`
const CAPTURES = `${GATEWAY}/operations/*/captures`
const ORDER_READS = `${GATEWAY}/orders/*`
const FINALIZE = `${GATEWAY}/build/finalize_payment`
const BUILD_STATE = `${GATEWAY}/build/state`
const UNKNOWN_OUTCOME = /Do not try again/

/** Every transport attempt of the write executes and loses its answer (the transport makes 3). */
function loseEveryAnswer(path: string) {
  return simulator.control("POST", "/faults", {
    match: { method: "POST", path },
    times: 8,
    phase: "after",
    action: { type: "reset" },
  })
}

/** GET /orders/{id} answers 503 until the faults are cleared; `passFirst` reads go through first. */
async function failOrderReads(passFirst = 0) {
  if (passFirst > 0) {
    await simulator.control("POST", "/faults", {
      match: { method: "GET", path: ORDER_READS },
      times: passFirst,
      action: { type: "latency", ms: 1 },
    })
  }
  await simulator.control("POST", "/faults", {
    match: { method: "GET", path: ORDER_READS },
    times: 500,
    action: { type: "status", status: 503 },
  })
}

const clearFaults = () => simulator.control("DELETE", "/faults")

function errorText(run: { errors?: Array<{ error: { message: string } }> }) {
  return (run.errors ?? []).map((failure) => failure.error.message).join(" | ")
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      // The scheduled job must not settle what a test expects its own run (or the retry) to settle.
      await holdReconcileLock(getContainer(), "money-once-suite")
    })

    const ledger = () => getContainer().resolve<PaymentLedger>("nexi_ledger")

    async function paidCardOrder() {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      return { checkout, orderId: completed.body.order.id as string, payment }
    }

    /** Staff capture 12.50; the gateway makes it, and neither its answer nor a read of the order comes back. */
    async function captureWithLostAnswer(paymentId: string) {
      await loseEveryAnswer(CAPTURES)
      await failOrderReads()
      const first = await capturePaymentWorkflow(getContainer()).run({
        input: { payment_id: paymentId, amount: 12.5 },
        throwOnError: false,
      })
      expect(errorText(first)).toMatch(UNKNOWN_OUTCOME)
    }

    async function capturedCardOrder() {
      const paid = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: paid.payment.id } })
      return paid
    }

    describe("a refund whose answer is lost", () => {
      it("is settled from the gateway's record at once when the order can be read", async () => {
        const { checkout, orderId, payment } = await capturedCardOrder()
        await loseEveryAnswer(REFUNDS)

        // Every attempt lost its answer; the read-back finds the refund executed, so the call succeeds.
        await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 5 } })

        const attempts = await kit.requests("POST", REFUNDS)
        expect(attempts.map((attempt) => attempt.status)).toEqual([0, 0, 0])
        expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1)
        expect((await ledger().writesOf(checkout.orderId)).map((write) => `${write.kind}/${write.outcome}`)).toContain(
          "refund/executed",
        )
        expect(
          (await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).map((refund) => refund.operationAmount),
        ).toEqual(["500"])
        const [refunded] = await kit.paymentsOfOrder(orderId)
        expect(refunded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
        expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
          capturedMinor: 1999,
          refundedMinor: 500,
        })
      })

      it("is refused with 'Do not try again' when the order cannot be read, and a staff retry with a new refund id sends nothing", async () => {
        const { checkout, orderId, payment } = await capturedCardOrder()
        await loseEveryAnswer(REFUNDS)
        await failOrderReads()

        const first = await refundPaymentWorkflow(getContainer()).run({
          input: { payment_id: payment.id, amount: 5 },
          throwOnError: false,
        })
        expect(errorText(first)).toMatch(UNKNOWN_OUTCOME)
        expect((await kit.paymentsOfOrder(orderId))[0].refunds).toEqual([])
        const [lost] = (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "refund")
        expect(lost.outcome).toBe("unknown")
        const sentBefore = (await kit.requests("POST", REFUNDS)).length

        await clearFaults()
        // The gateway did refund; Medusa rolled its refund back.
        expect(await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).toHaveLength(1)
        await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 5 } })

        // Nothing new was sent: the retry took over the refund the gateway had made.
        expect(await kit.requests("POST", REFUNDS)).toHaveLength(sentBefore)
        expect(
          (await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).map((refund) => refund.operationAmount),
        ).toEqual(["500"])
        const [refunded] = await kit.paymentsOfOrder(orderId)
        expect(refunded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
        const writes = (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "refund")
        expect(writes.map((write) => ({ outcome: write.outcome, claimed_by: write.claimed_by }))).toEqual([
          { outcome: "executed", claimed_by: refunded.refunds[0].id },
        ])
        expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
          capturedMinor: 1999,
          refundedMinor: 500,
        })
      })
    })

    it("captures once when the capture's answer is lost and the order cannot be read, then staff capture again", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await captureWithLostAnswer(payment.id)
      expect((await kit.paymentsOfOrder(orderId))[0].captures).toEqual([])
      const sentBefore = (await kit.requests("POST", CAPTURES)).length

      await clearFaults()
      expect(await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).toHaveLength(1)
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 12.5 } })

      expect(await kit.requests("POST", CAPTURES)).toHaveLength(sentBefore)
      expect(
        (await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).map(
          (capture) => capture.operationAmount,
        ),
      ).toEqual(["1250"])
      const [captured] = await kit.paymentsOfOrder(orderId)
      expect(captured.captures.map((capture) => Number(capture.amount))).toEqual([12.5])
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 1250, refundedMinor: 0 })
    })

    it.each([
      ["the whole payment (larger)", undefined],
      ["5.00 (smaller)", 5],
    ] as const)(
      "refuses a retry with %s of a capture of 12.50 whose answer was lost, and the job records the 12.50",
      async (_label, retryAmount) => {
        const { checkout, orderId, payment } = await paidCardOrder()
        await captureWithLostAnswer(payment.id)
        await clearFaults()
        expect(
          (await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).map(
            (capture) => capture.operationAmount,
          ),
        ).toEqual(["1250"])

        // Staff capture another amount this time: the gateway holds 12.50 and allows no second capture.
        const sentBefore = (await kit.requests("POST", CAPTURES)).length
        const retry = await capturePaymentWorkflow(getContainer()).run({
          input: { payment_id: payment.id, amount: retryAmount },
          throwOnError: false,
        })
        expect(errorText(retry)).toMatch(
          /an earlier capture of 12\.50 EUR, whose answer was lost, was made .*Nothing was sent\. Capture exactly 12\.50 EUR/,
        )
        expect(await kit.requests("POST", CAPTURES)).toHaveLength(sentBefore)
        expect((await kit.paymentsOfOrder(orderId))[0].captures).toEqual([])

        // The job brings Medusa to what the gateway holds.
        const summary = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))
        expect(summary.outcomes.failed).toBeUndefined()
        expect(await kit.requests("POST", CAPTURES)).toHaveLength(sentBefore)
        expect(
          (await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).map(
            (capture) => capture.operationAmount,
          ),
        ).toEqual(["1250"])
        expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
          capturedMinor: 1250,
          refundedMinor: 0,
        })
      },
    )

    it("records no capture the back office cancelled after its answer was lost, and staff's next capture is sent", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await captureWithLostAnswer(payment.id)
      await clearFaults()
      const [made] = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      await simulator.gateway(`/operations/${made.operationId}/cancels`, { description: "Back office" })

      // The job finds the capture made, and cancelled: nothing for Medusa to record.
      const summary = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))
      expect(summary.outcomes.failed).toBeUndefined()
      expect((await kit.paymentsOfOrder(orderId))[0].captures).toEqual([])
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })

      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 12.5 } })

      const captures = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      expect(captures).toHaveLength(2)
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 1250, refundedMinor: 0 })
    })

    it("voids once when the void's answer is lost and the order cannot be read, then the payment is cancelled again", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await loseEveryAnswer(REFUNDS)
      // cancelPayment reads the order once before it voids; the read after the lost answer fails.
      await failOrderReads(1)
      const logFrom = suiteOutput().chunks().length

      // Medusa's cancelPaymentStep logs a failed cancel and goes on: the order is cancelled all the same.
      const first = await cancelOrderWorkflow(getContainer()).run({ input: { order_id: orderId }, throwOnError: false })
      expect(errorText(first)).toBe("")
      expect(suiteOutput().textSince(logFrom)).toMatch(/Error was thrown trying to cancel payment .*Do not try again/)
      const [lost] = (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "void")
      expect(lost.outcome).toBe("unknown")
      const sentBefore = (await kit.requests("POST", REFUNDS)).length
      expect(sentBefore).toBeGreaterThanOrEqual(2)

      await clearFaults()
      expect(await kit.gatewayOperations(checkout.orderId, "VOID", "VOIDED")).toHaveLength(1)
      // The retry: cancel the payment again (the order is cancelled already).
      await getContainer().resolve(Modules.PAYMENT).cancelPayment(payment.id)

      expect(await kit.requests("POST", REFUNDS)).toHaveLength(sentBefore)
      const gateway = await kit.gatewayOrder(checkout.orderId)
      expect(
        gateway.operations
          .filter((operation) => operation.operationType === "VOID")
          .map((operation) => operation.operationResult),
      ).toEqual(["VOIDED"])
      expect(gateway.orderStatus.authorizedAmount).toBe("0")
      const voids = (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "void")
      expect(voids.map((write) => write.outcome)).toEqual(["executed"])
      const [cancelled] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(cancelled.canceled_at).not.toBeNull()
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })
    })

    it("settles a void with an unknown outcome in the reconciliation job when nobody retries", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await loseEveryAnswer(REFUNDS)
      await failOrderReads(1)
      await cancelOrderWorkflow(getContainer()).run({ input: { order_id: orderId }, throwOnError: false })
      expect((await ledger().writesOf(checkout.orderId)).map((write) => `${write.kind}/${write.outcome}`)).toEqual([
        "void/unknown",
      ])
      const sentBefore = (await kit.requests("POST", REFUNDS)).length

      await clearFaults()
      const summary = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))

      expect(summary.outcomes.failed).toBeUndefined()
      expect((await ledger().writesOf(checkout.orderId)).map((write) => `${write.kind}/${write.outcome}`)).toEqual([
        "void/executed",
      ])
      expect(await kit.requests("POST", REFUNDS)).toHaveLength(sentBefore)
      expect(await kit.gatewayOperations(checkout.orderId, "VOID", "VOIDED")).toHaveLength(1)
      const [after] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(after.canceled_at).not.toBeNull()
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })
    })

    it("settles a refund with an unknown outcome in the reconciliation job once the gateway answers again", async () => {
      const { checkout, orderId, payment } = await capturedCardOrder()
      await loseEveryAnswer(REFUNDS)
      await failOrderReads()

      const first = await refundPaymentWorkflow(getContainer()).run({
        input: { payment_id: payment.id, amount: 5 },
        throwOnError: false,
      })
      expect(errorText(first)).toMatch(UNKNOWN_OUTCOME)
      expect((await kit.paymentsOfOrder(orderId))[0].refunds).toEqual([])

      await clearFaults()
      const summary = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))

      expect(summary.outcomes.failed).toBeUndefined()
      expect(summary.outcomes.refund_recorded).toBe(1)
      const writes = (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "refund")
      expect(writes).toHaveLength(1)
      expect(writes[0].outcome).toBe("executed")
      const [refunded] = await kit.paymentsOfOrder(orderId)
      expect(refunded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
      expect(writes[0].claimed_by).toBe(refunded.refunds[0].id)
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 500,
      })

      // A second run finds nothing more to record, and staff refunding the rest sends only the rest.
      await reconcilePendingSessions(getContainer(), new Date(Date.now() + 20 * 60_000))
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 14.99 } })
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 1999,
      })
    })

    it("pays a Build session once when the finalize's answer is lost and the gateway cannot be read: the shopper's retry answers it", async () => {
      // Only the shopper completes this cart.
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      const checkout = await kit.openBuildCheckoutReady()
      await loseEveryAnswer(FINALIZE)
      await simulator.control("POST", "/faults", {
        match: { method: "GET", path: BUILD_STATE },
        times: 500,
        action: { type: "status", status: 503 },
      })

      const lost = await kit.finalizeBuild(checkout)
      expect(lost.status).toBe(500)
      expect(lost.body.message).toBe(
        `Could not pay with the card fields: the outcome of the payment of gateway order ${checkout.orderId} with the card fields is unknown: the gateway could not be read. Send the same request again: it reads the gateway first and never acts twice.`,
      )
      expect(await ledger().writesOf(checkout.orderId)).toEqual([
        expect.objectContaining({ kind: "build_finalize", outcome: "unknown" }),
      ])

      await clearFaults()
      expect(await kit.finalizeBuild(checkout)).toEqual({ status: 200, body: { next: "complete_cart" } })
      // The retry read the session's state and sent nothing: one finalize, one authorization.
      expect((await kit.requests("POST", FINALIZE)).map((request) => request.status)).toEqual([0])
      expect(await kit.gatewayOperations(checkout.orderId, "AUTHORIZATION", "AUTHORIZED")).toHaveLength(1)
      expect(await ledger().writesOf(checkout.orderId)).toEqual([
        expect.objectContaining({ kind: "build_finalize", outcome: "executed" }),
      ])

      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const payments = await kit.paymentsOfOrder(completed.body.order.id)
      expect(payments.map((payment) => [Number(payment.amount), payment.captured_at])).toEqual([
        [UNIT_PRICE.major, null],
      ])
      expect((await kit.finalizeBuild(checkout)).status).toBe(409)
      expect(await kit.requests("POST", FINALIZE)).toHaveLength(1)
    })

    it("refuses a capture whose Medusa capture record cannot be read, and sends nothing to the gateway", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      const paymentModule = getContainer().resolve(Modules.PAYMENT) as unknown as {
        paymentProviderService_?: { capturePayment(providerId: string, input: unknown): Promise<unknown> }
      }
      const providers = paymentModule.paymentProviderService_
      expect(providers).toBeDefined()

      await expect(
        providers!.capturePayment(NEXI_CARD_PROVIDER, {
          data: payment.data,
          context: { idempotency_key: "capt_does_not_exist" },
        }),
      ).rejects.toThrow(
        /the Medusa capture capt_does_not_exist could not be read \(it does not exist\); nothing was sent to the gateway/,
      )
      await expect(providers!.capturePayment(NEXI_CARD_PROVIDER, { data: payment.data, context: {} })).rejects.toThrow(
        /could not be read|capture id/,
      )

      expect(await kit.requests("POST", CAPTURES)).toEqual([])
      expect((await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "capture")).toEqual([])
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })
    })

    it("opens an attempt with the table's defaults, and a second open of the same order changes nothing", async () => {
      const opened = {
        provider_identifier: "nexi_nexi",
        gateway_ref: "ORD-ledger-open",
        amount_minor: "1990",
        currency: "EUR",
        security_token_hash: "a".repeat(64),
      }
      const first = await ledger().openAttempt({ ...opened, session_id: "payses_first" })
      expect(first).toEqual(
        expect.objectContaining({
          ...opened,
          id: expect.stringMatching(/^nexatt_/),
          session_id: "payses_first",
          state: "open",
          checks: 0,
        }),
      )
      expect(first.created_at).toBeInstanceOf(Date)

      const again = await ledger().openAttempt({ ...opened, amount_minor: "1", session_id: "payses_second" })
      expect(again).toEqual(expect.objectContaining({ id: first.id, amount_minor: "1990", session_id: "payses_first" }))
      expect(await ledger().findAttempt(opened.gateway_ref)).toEqual(
        expect.objectContaining({ id: first.id, amount_minor: "1990" }),
      )
    })

    describe("a payment on a hosted page no live session owns", () => {
      async function expectReleased(gatewayOrderId: string, kind: "void" | "refund") {
        const attempt = await eventually(
          async () => {
            const found = await ledger().findAttempt(gatewayOrderId)
            return found?.state === "released" ? found : undefined
          },
          { timeoutMs: 30_000 },
        )
        expect(attempt.released_at).not.toBeNull()
        const releases = (await ledger().writesOf(gatewayOrderId)).filter((write) => write.origin === "release")
        expect(releases.map((write) => ({ kind: write.kind, outcome: write.outcome }))).toEqual([
          { kind, outcome: "executed" },
        ])
        return attempt
      }

      it("voids the old page's payment on its notification when the cart changed, and the new page still pays the order", async () => {
        const checkout = await kit.openCardCheckout()
        // The shopper adds a cup in another tab: Medusa deletes the session, the storefront starts a new one.
        await api.post(
          `/store/carts/${checkout.cartId}/line-items`,
          { variant_id: kit.variantId, quantity: 1 },
          storeHeaders(kit.publishableKey),
        )
        const { session: renewed } = await startPaymentSession(
          api,
          kit.publishableKey,
          checkout.cartId,
          NEXI_CARD_PROVIDER,
        )
        expect(renewed.data.order_id).not.toBe(checkout.orderId)
        expect((await ledger().findAttempt(checkout.orderId))?.state).toBe("superseded")
        const logFrom = suiteOutput().chunks().length

        await kit.pay(checkout.orderId, CARDS.approved, true)

        await expectReleased(checkout.orderId, "void")
        const old = await kit.gatewayOrder(checkout.orderId)
        expect(old.operations.map((operation) => `${operation.operationType}/${operation.operationResult}`)).toContain(
          "VOID/VOIDED",
        )
        expect(old.orderStatus.authorizedAmount).toBe("0")
        expect(suiteOutput().textSince(logFrom)).toMatch(
          /nexi: payment on a hosted order whose payment session was deleted, voided/,
        )
        expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])

        await kit.pay(renewed.data.order_id, CARDS.approved, true)
        const completed = await kit.completeAsShopper(checkout.cartId)
        expect(completed.body.type).toBe("order")
        const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
        expect(Number(payment.amount)).toBe(2 * UNIT_PRICE.major)
        expect((await kit.gatewayOrder(renewed.data.order_id)).orderStatus.authorizedAmount).toBe("3998")
        expect(await gatewayBooks(kit, checkout.orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })
        expect(await expectBooksAgree(kit, renewed.data.order_id, completed.body.order.id)).toEqual({
          capturedMinor: 0,
          refundedMinor: 0,
        })
      })

      it("releases a superseded page's payment whose notification was dropped in one reconciliation run", async () => {
        const checkout = await kit.openCardCheckout()
        const paymentModule = getContainer().resolve(Modules.PAYMENT)
        const session = await kit.session(checkout.sessionId)
        const updated = await paymentModule.updatePaymentSession({
          id: session.id,
          amount: 2 * UNIT_PRICE.major,
          currency_code: session.currency_code,
          data: session.data,
        })
        const renewedOrderId = (updated.data as { order_id: string }).order_id
        expect(renewedOrderId).not.toBe(checkout.orderId)
        expect((await ledger().findAttempt(checkout.orderId))?.state).toBe("superseded")
        await simulator.control("POST", "/faults/notifications", { drop: 1 })
        const logFrom = suiteOutput().chunks().length

        await kit.pay(checkout.orderId, CARDS.approved, true)
        expect((await ledger().findAttempt(checkout.orderId))?.state).toBe("superseded")

        const summary = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))
        expect(summary.outcomes.failed).toBeUndefined()
        const released = await expectReleased(checkout.orderId, "void")
        expect(released.note).toMatch(/replaced/)
        expect(suiteOutput().textSince(logFrom)).toMatch(
          /nexi: payment on a hosted order the cart had replaced, voided/,
        )
        expect((await kit.gatewayOrder(checkout.orderId)).orderStatus.authorizedAmount).toBe("0")
        // The new page is still open and payable, at the new amount.
        const paid = await kit.pay(renewedOrderId, CARDS.approved, false)
        expect(paid.result).toMatch(/approved|authorized|success/i)
        expect((await kit.gatewayOrder(renewedOrderId)).orderStatus.authorizedAmount).toBe("3998")
        expect(await gatewayBooks(kit, checkout.orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })
        // A second run does not release it again.
        await reconcilePendingSessions(getContainer(), new Date(Date.now() + 20 * 60_000))
        expect((await ledger().writesOf(checkout.orderId)).filter((write) => write.origin === "release")).toHaveLength(
          1,
        )
        expect(await kit.gatewayOperations(checkout.orderId, "VOID", "VOIDED")).toHaveLength(1)
      })

      it("voids a payment made on the page of a deleted session", async () => {
        const checkout = await kit.openCardCheckout()
        await getContainer().resolve(Modules.PAYMENT).deletePaymentSession(checkout.sessionId)
        expect((await ledger().findAttempt(checkout.orderId))?.state).toBe("superseded")
        const logFrom = suiteOutput().chunks().length

        await kit.pay(checkout.orderId, CARDS.approved, true)

        await expectReleased(checkout.orderId, "void")
        expect(suiteOutput().textSince(logFrom)).toMatch(
          /nexi: payment on a hosted order whose payment session was deleted/,
        )
        expect(await kit.gatewayOperations(checkout.orderId, "VOID", "VOIDED")).toHaveLength(1)
        expect((await kit.gatewayOrder(checkout.orderId)).orderStatus.authorizedAmount).toBe("0")
        expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])
        expect(await gatewayBooks(kit, checkout.orderId)).toEqual({ capturedMinor: 0, refundedMinor: 0 })
      })
    })
  },
})

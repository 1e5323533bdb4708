/**
 * Issue 8, races: 50 paid carts whose shoppers complete the cart at the moment the gateway's
 * notification is handled. Both paths complete the cart (the storefront's POST .../complete
 * and Medusa's webhook workflow); the result must be 50 orders, no duplicates, and a plain
 * order for every shopper, never an error.
 *
 * Timing: the 50 notifications are held by the simulator, then released together; Medusa
 * hands each to its subscribers 5 s after receiving it, so the shoppers are let loose 5 s
 * after the release, when the webhook workflows start. Nothing asserts on timing: whichever
 * path wins, the outcome must be the same.
 *
 * A notification that finds the cart's lock held (the shopper's checkout completing it) leaves
 * the cart to that checkout instead of queueing Medusa's workflow behind it to complete it a
 * second time; a checkout that never finishes leaves the attempt to the job, which completes it.
 *
 * An XPay Build payment (the card typed in the checkout's fields, finalized by the store) is
 * settled as a hosted one: its notification three times, the job and the shopper's completion
 * at once still make one order with one payment.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { type CardCheckout, CheckoutKit, countWebhookEvents, mapWithLimit, UNIT_PRICE } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { simulatorForSuite } from "../support/simulator"
import { eventually } from "../support/store"
import { suiteOutput } from "../support/suite-output"

jest.setTimeout(10 * 60_000)

const simulator = simulatorForSuite()

const CARTS = 50
const MEDUSA_WEBHOOK_DELAY_MS = 5_000

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    it("completes 50 carts exactly once each when the shopper and the notification arrive together", async () => {
      const kit = new CheckoutKit(api, getContainer, simulator)
      await simulator.control("POST", "/reset")
      await kit.seed()
      const webhookEvents = countWebhookEvents(getContainer())
      const outputMark = suiteOutput().chunks().length

      const checkouts = await kit.openCardCheckouts(CARTS)
      await simulator.control("POST", "/faults/notifications", { reverseBatch: CARTS })
      await mapWithLimit(checkouts, 8, (checkout) => kit.pay(checkout.orderId))

      const released = simulator.control("POST", "/notifications/flush")
      await new Promise((resolve) => setTimeout(resolve, MEDUSA_WEBHOOK_DELAY_MS))
      const answers = await Promise.all(checkouts.map((checkout) => kit.completeAsShopper(checkout.cartId)))
      await released

      // Every shopper got an order, the one their cart holds.
      const refused = answers.filter((answer) => answer.status !== 200 || answer.body?.type !== "order")
      expect(refused).toEqual([])
      await eventually(async () => (webhookEvents.count() >= CARTS ? true : undefined), { timeoutMs: 120_000 })
      // The webhook workflows that lost the race get their chance to do harm.
      await new Promise((resolve) => setTimeout(resolve, MEDUSA_WEBHOOK_DELAY_MS))

      const orders = await kit.ordersOfCarts(checkouts.map((checkout) => checkout.cartId))
      expect([...orders.values()].filter((ids) => ids.length !== 1)).toEqual([])
      const shopperOrders = answers.map((answer) => answer.body.order.id)
      expect(shopperOrders).toEqual(checkouts.map((checkout) => orders.get(checkout.cartId)![0]))
      expect(new Set(shopperOrders).size).toBe(CARTS)

      const problems: string[] = []
      await mapWithLimit(checkouts, 8, async (checkout) => {
        const payments = await kit.paymentsOfOrder(orders.get(checkout.cartId)![0])
        const session = await kit.session(checkout.sessionId)
        if (
          payments.length !== 1 ||
          Number(payments[0].amount) !== UNIT_PRICE.major ||
          payments[0].captured_at !== null
        ) {
          problems.push(
            `${checkout.cartId}: payments ${JSON.stringify(payments.map(({ amount, captured_at }) => ({ amount, captured_at })))}`,
          )
        }
        if (session.status !== "authorized") problems.push(`${checkout.sessionId}: session ${session.status}`)
      })
      expect(problems).toEqual([])
      // EXPLICIT capture: nothing is captured until the merchant does it.
      expect(await kit.requests("POST", "/api/phoenix-0.0/psp/api/v1/operations/*/captures")).toEqual([])
      expect(suiteOutput().textSince(outputMark)).not.toContain("An error occurred while processing")
    })

    describe("a notification while the shopper's checkout holds the cart", () => {
      /** Long enough for the notification to be handled: without the probe, Medusa's workflow waits this out. */
      const HELD_MS = 8_000
      let kit: CheckoutKit

      beforeAll(async () => {
        // The suite runs the job itself, so the scheduled run cannot complete a cart first.
        await holdReconcileLock(getContainer(), "checkout-races-suite")
      })

      beforeEach(async () => {
        await simulator.control("POST", "/reset")
        kit = new CheckoutKit(api, getContainer, simulator)
        await kit.seed()
      })

      /** Pays while the cart's lock is held as a checkout would hold it; gives it back once the notification was handled. */
      async function payWhileCartHeld(checkout: CardCheckout): Promise<void> {
        const locking = getContainer().resolve(Modules.LOCKING)
        const webhookEvents = countWebhookEvents(getContainer())
        await locking.acquire(checkout.cartId, { ownerId: "shopper-checkout", expire: 60 })
        try {
          await kit.pay(checkout.orderId, undefined, true)
          await eventually(async () => (webhookEvents.count() >= 1 ? true : undefined), { timeoutMs: 30_000 })
          await new Promise((resolve) => setTimeout(resolve, HELD_MS))
        } finally {
          await locking.release(checkout.cartId, { ownerId: "shopper-checkout" })
        }
        // A workflow queued behind the lock would take it now and complete the cart.
        await new Promise((resolve) => setTimeout(resolve, 3_000))
      }

      async function attemptOf(orderId: string): Promise<{ state: string }> {
        const knex = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        return knex("nexi_payment_attempt").where("gateway_ref", orderId).first()
      }

      it("leaves the cart to the shopper's checkout, which completes it once", async () => {
        const checkout = await kit.openCardCheckout()
        await payWhileCartHeld(checkout)

        expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])
        expect((await kit.session(checkout.sessionId)).status).toBe("pending")
        expect(await attemptOf(checkout.orderId)).toMatchObject({ state: "open" })

        const answer = await kit.completeAsShopper(checkout.cartId)
        expect(answer.body.type).toBe("order")
        expect(await kit.ordersOfCart(checkout.cartId)).toEqual([answer.body.order.id])
        expect(await attemptOf(checkout.orderId)).toMatchObject({ state: "paid" })
      })

      it("completes the cart by the job when that checkout never finishes", async () => {
        const checkout = await kit.openCardCheckout()
        await payWhileCartHeld(checkout)
        expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])

        await reconcilePendingSessions(getContainer(), new Date(Date.now() + 60 * 60_000))

        const orders = await kit.ordersOfCart(checkout.cartId)
        expect(orders).toHaveLength(1)
        const payments = await kit.paymentsOfOrder(orders[0])
        expect(payments.map((payment) => [Number(payment.amount), payment.captured_at])).toEqual([
          [UNIT_PRICE.major, null],
        ])
        expect(await attemptOf(checkout.orderId)).toMatchObject({ state: "paid" })
      })
    })

    describe("an XPay Build payment", () => {
      let kit: CheckoutKit

      beforeAll(async () => {
        await holdReconcileLock(getContainer(), "checkout-races-suite")
      })

      beforeEach(async () => {
        await simulator.control("POST", "/reset")
        kit = new CheckoutKit(api, getContainer, simulator)
        await kit.seed()
      })

      it("is recorded once when its notification comes three times while the job and the shopper complete the cart", async () => {
        const webhookEvents = countWebhookEvents(getContainer())
        const checkout = await kit.openBuildCheckoutReady()
        // The three copies wait until the shopper's page and the job are let loose.
        await simulator.control("POST", "/faults/notifications", { copies: 3, reverseBatch: 10 })
        expect(await kit.finalizeBuild(checkout)).toEqual({ status: 200, body: { next: "complete_cart" } })

        const released = simulator.control("POST", "/notifications/flush")
        await new Promise((resolve) => setTimeout(resolve, MEDUSA_WEBHOOK_DELAY_MS))
        const [shopper] = await Promise.all([
          kit.completeAsShopper(checkout.cartId),
          reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000)),
        ])
        await released
        await eventually(async () => (webhookEvents.count() >= 3 ? true : undefined), { timeoutMs: 60_000 })
        // The copies that lost the race get their chance to do harm.
        await new Promise((resolve) => setTimeout(resolve, MEDUSA_WEBHOOK_DELAY_MS))

        expect(shopper.body.type).toBe("order")
        expect(await kit.ordersOfCart(checkout.cartId)).toEqual([shopper.body.order.id])
        const payments = await kit.paymentsOfOrder(shopper.body.order.id)
        expect(payments.map((payment) => [Number(payment.amount), payment.captured_at])).toEqual([
          [UNIT_PRICE.major, null],
        ])
        expect((await kit.session(checkout.sessionId)).status).toBe("authorized")
        const { operations } = await kit.gatewayOrder(checkout.orderId)
        expect(operations.map((operation) => `${operation.operationType}/${operation.operationResult}`)).toEqual([
          "AUTHORIZATION/THREEDS_VALIDATED",
          "AUTHORIZATION/AUTHORIZED",
        ])
        expect(await kit.requests("POST", "/api/phoenix-0.0/psp/api/v1/build/finalize_payment")).toHaveLength(1)
        expect(await kit.requests("POST", "/api/phoenix-0.0/psp/api/v1/operations/*/captures")).toEqual([])
      })
    })
  },
})

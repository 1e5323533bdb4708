/**
 * A thousand abandoned hosted pages must not hide a paid one: the reconciliation job reads at
 * most READS_PER_RUN gateway orders a run, least-read attempts first, so a payment whose
 * notification was lost becomes an order within two runs even while 1,000 abandoned
 * attempts are due. Every abandoned session is a real hosted order at the simulator and an
 * attempt in the ledger, created through the payment module (one payment collection each).
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { READS_PER_RUN, reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { CARDS, CheckoutKit, mapWithLimit, UNIT_PRICE } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { expectBooksAgree } from "../support/money-books"
import { simulatorForSuite } from "../support/simulator"
import { NEXI_CARD_PROVIDER } from "../support/store"

jest.setTimeout(6 * 60_000)

const simulator = simulatorForSuite()

const ABANDONED = 1000
const ORDER_READ = /^\/api\/phoenix-0\.0\/psp\/api\/v1\/orders\/[^/]+$/
const MINUTE = 60_000

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeAll(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      // Only this suite's runs read the gateway, so each run's reads can be counted.
      await holdReconcileLock(getContainer(), "abandoned-carts-suite")
    })

    async function orderReads(): Promise<number> {
      const { requests } = await simulator.control<{ requests: Array<{ method: string; path: string }> }>(
        "GET",
        "/requests",
      )
      return requests.filter((request) => request.method === "GET" && ORDER_READ.test(request.path)).length
    }

    /** One job run at `now`; how many gateway order reads it made. */
    async function runJob(now: Date): Promise<{ reads: number; checked: number; outcomes: Record<string, number> }> {
      const before = await orderReads()
      const summary = await reconcilePendingSessions(getContainer(), now)
      const reads = (await orderReads()) - before
      return { reads, checked: summary.checked, outcomes: summary.outcomes as Record<string, number> }
    }

    async function attemptsNeverRead(refs: string[]): Promise<number> {
      const knex = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const [row] = await knex("nexi_payment_attempt")
        .whereIn("gateway_ref", refs)
        .andWhere("checks", 0)
        .count({ count: "*" })
      return Number(row.count)
    }

    it("finds a paid cart whose notification was dropped within two runs while 1,000 abandoned attempts are due", async () => {
      const started = Date.now()
      const payment = getContainer().resolve(Modules.PAYMENT)
      const collections = await payment.createPaymentCollections(
        Array.from({ length: ABANDONED }, () => ({ currency_code: "eur", amount: UNIT_PRICE.major })),
      )
      const sessions = await mapWithLimit(collections, 12, (collection) =>
        payment.createPaymentSession(collection.id, {
          provider_id: NEXI_CARD_PROVIDER,
          currency_code: "eur",
          amount: UNIT_PRICE.major,
          data: {},
        }),
      )
      const abandonedRefs = sessions.map((session) => (session.data as { order_id: string }).order_id)
      expect(new Set(abandonedRefs).size).toBe(ABANDONED)
      const created = await simulator.control<{ counts: Record<string, number> }>("GET", "/requests")
      expect(created.counts["POST /api/phoenix-0.0/psp/api/v1/orders/hpp"]).toBe(ABANDONED)
      expect(await attemptsNeverRead(abandonedRefs)).toBe(ABANDONED)
      console.log(`abandoned-carts: ${ABANDONED} sessions in ${Date.now() - started} ms`)

      // Every abandoned attempt is read once: the first reads are due after pollPendingAfterSeconds.
      const firstPass = new Date(Date.now() + 10 * MINUTE)
      const firstRuns: number[] = []
      while ((await attemptsNeverRead(abandonedRefs)) > 0) {
        expect(firstRuns.length).toBeLessThan(2 * Math.ceil(ABANDONED / (READS_PER_RUN / 2)))
        const run = await runJob(firstPass)
        expect(run.outcomes.failed).toBeUndefined()
        firstRuns.push(run.reads)
      }
      expect(Math.max(...firstRuns)).toBeLessThanOrEqual(READS_PER_RUN)
      expect(firstRuns.reduce((total, reads) => total + reads, 0)).toBeGreaterThanOrEqual(ABANDONED)
      console.log(
        `abandoned-carts: first pass in ${firstRuns.length} runs, reads per run ${firstRuns.join(",")}, at ${Date.now() - started} ms`,
      )

      // One shopper pays; the notification is lost.
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const { notifications } = await simulator.control<{ notifications: Array<{ error?: string }> }>(
        "GET",
        "/notifications",
      )
      expect(notifications.map((notification) => notification.error)).toEqual(["dropped by fault injection"])
      expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])

      // Later, every abandoned attempt is due again as well.
      const later = new Date(Date.now() + 30 * MINUTE)
      const laterRuns: Array<{ reads: number; checked: number }> = []
      let orders: string[] = []
      while (laterRuns.length < 2 && orders.length === 0) {
        const run = await runJob(later)
        expect(run.outcomes.failed).toBeUndefined()
        laterRuns.push(run)
        orders = await kit.ordersOfCart(checkout.cartId)
      }
      console.log(
        `abandoned-carts: paid cart found after ${laterRuns.length} run(s) ${JSON.stringify(laterRuns)}, at ${Date.now() - started} ms`,
      )
      expect(orders).toHaveLength(1)
      for (const run of laterRuns) {
        expect(run.reads).toBeLessThanOrEqual(READS_PER_RUN)
        // The abandoned ones were due too, and read within the same budget.
        expect(run.checked).toBeGreaterThan(1)
      }
      const attempt = await getContainer()
        .resolve<{ findAttempt(ref: string): Promise<{ state: string } | undefined> }>("nexi_ledger")
        .findAttempt(checkout.orderId)
      expect(attempt?.state).toBe("paid")
      expect(await expectBooksAgree(kit, checkout.orderId, orders[0])).toEqual({ capturedMinor: 0, refundedMinor: 0 })
      expect((await kit.gatewayOrder(checkout.orderId)).orderStatus.authorizedAmount).toBe(UNIT_PRICE.minor)
    })
  },
})

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
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { CheckoutKit, countWebhookEvents, mapWithLimit, UNIT_PRICE } from "../support/checkout-kit"
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
  },
})

/**
 * What the gateway did outside Medusa is recorded once, and a notification is believed only
 * after its token: a refund or a capture made in Nexi's back office whose notification arrives
 * three times while the job, the storefront's status poll and a staff Sync read the same
 * payment becomes one Medusa refund or capture; a refund or a capture whose Medusa row Medusa
 * deleted after the gateway made it is recorded again; a back-office refund whose every
 * notification was lost is recorded by the job's later look at the paid order (and orders paid
 * before the upgrade get those looks too); a forged notification makes the store read nothing
 * from the gateway, and a genuine one for a payment Medusa holds reads it once.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Migration20261208000000 } from "../../src/modules/nexi-ledger/migrations/Migration20261208000000"
import { reconcilePendingSessions, reconcileSession } from "../../src/reconciliation/reconcile-pending-sessions"
import { adminHeaders } from "../support/admin-auth"
import { CARDS, CheckoutKit, countWebhookEvents } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { expectBooksAgree } from "../support/money-books"
import { simulatorForSuite } from "../support/simulator"
import { eventually, NEXI_CARD_PROVIDER } from "../support/store"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const WEBHOOK_DELAY_MS = 7_000
const settle = () => new Promise((resolve) => setTimeout(resolve, WEBHOOK_DELAY_MS))

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      // The scheduled job stays out: the test runs the job itself, at the moment it chooses.
      await holdReconcileLock(getContainer(), "recorded-once-suite")
    })

    /** A shopper's card order, completed: its payment authorized. */
    async function paidCardOrder() {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const medusaOrderId = completed.body.order.id as string
      const [payment] = await kit.paymentsOfOrder(medusaOrderId)
      return { checkout, medusaOrderId, payment }
    }

    /** The order's genuine notification, as the gateway sent it, delivered three times. */
    async function notifyThreeTimes(orderId: string) {
      const { notifications } = await simulator.control<{
        notifications: Array<{ body: { operation: { orderId: string } } }>
      }>("GET", "/notifications")
      const genuine = notifications.find(({ body }) => body.operation.orderId === orderId)?.body
      expect(genuine).toBeDefined()
      for (let copy = 0; copy < 3; copy++) await api.post("/hooks/payment/nexi_nexi", genuine)
    }

    /**
     * Medusa hands the copies to its subscribers together; the job, a status poll and a staff
     * Sync read the payment meanwhile. Returns once the three copies were handed on and handled.
     */
    async function readWhileNotified(events: { count(): number }, sessionId: string, paymentId: string) {
      const staff = await adminHeaders(getContainer(), api)
      await eventually(async () => (events.count() >= 1 ? true : undefined))
      const readers = await Promise.allSettled([
        reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000)),
        reconcileSession(getContainer(), { id: sessionId, provider_id: NEXI_CARD_PROVIDER }),
        api.post(`/admin/nexi/payments/${paymentId}/sync`, {}, staff),
      ])
      expect(readers.map((reader) => reader.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"])
      await eventually(async () => (events.count() >= 3 ? true : undefined))
      await settle()
    }

    it("records a back-office refund notified three times, while the job, a status poll and a staff Sync run, once", async () => {
      const { checkout, medusaOrderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      const [capture] = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      const events = countWebhookEvents(getContainer())

      // The back office refunds 5.00; the gateway settles it later and notifies, three times.
      await simulator.control("POST", "/faults/notifications", { copies: 3 })
      await simulator.control("POST", "/settings/refunds", { mode: "pending" })
      await simulator.gateway(`/operations/${capture.operationId}/refunds`, { amount: "500", currency: "EUR" })
      await simulator.control("POST", "/refunds/settle", {})
      const [backOffice] = await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")

      await readWhileNotified(events, checkout.sessionId, payment.id)

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
      const refunds = await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")
      expect(refunds.map((refund) => refund.operationId)).toEqual([backOffice.operationId])
      const query = getContainer().resolve("query")
      const { data } = await query.graph({
        entity: "refund",
        fields: ["id", "metadata"],
        filters: { id: recorded.refunds[0].id },
      })
      expect(data[0].metadata).toEqual({ nexi_operation_id: backOffice.operationId })
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 500,
      })
    })

    it("records a back-office refund whose every notification was lost, with nobody acting: the job looks at the paid order again an hour on", async () => {
      const { checkout, medusaOrderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      const [capture] = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      await simulator.control("POST", "/notifications/flush")
      await settle()

      // The back office refunds 5.00; every notification from now on is lost.
      await simulator.control("POST", "/faults/notifications", { drop: 10 })
      await simulator.gateway(`/operations/${capture.operationId}/refunds`, { amount: "500", currency: "EUR" })
      const [backOffice] = await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")
      const minutesOn = (minutes: number) => new Date(Date.now() + minutes * 60_000)

      // Not due yet ten minutes on: the job has nothing of this order to read.
      await reconcilePendingSessions(getContainer(), minutesOn(10))
      expect((await kit.paymentsOfOrder(medusaOrderId))[0].refunds).toEqual([])

      // An hour on, the job's look records it; its next look, two hours later, finds nothing more.
      await reconcilePendingSessions(getContainer(), minutesOn(61))
      await reconcilePendingSessions(getContainer(), minutesOn(3 * 60 + 2))

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
      const { data } = await getContainer()
        .resolve("query")
        .graph({ entity: "refund", fields: ["metadata"], filters: { id: recorded.refunds[0].id } })
      expect(data[0].metadata).toEqual({ nexi_operation_id: backOffice.operationId })
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 500,
      })
    })

    it("starts the looks of orders paid in the month before the upgrade, and of no older one", async () => {
      const knex = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const attempt = (orderId: string) => knex("nexi_payment_attempt").where({ gateway_ref: orderId })
      // Two paid orders as the version before left them, their watch ended: one of last week, one of 40 days ago.
      const recent = (await paidCardOrder()).checkout.orderId
      const old = (await paidCardOrder()).checkout.orderId
      await attempt(recent).update({
        checks: 3,
        next_check_at: null,
        updated_at: knex.raw("now() - interval '7 days'"),
      })
      await attempt(old).update({ checks: 3, next_check_at: null, updated_at: knex.raw("now() - interval '40 days'") })

      const migration = new Migration20261208000000({} as never, {} as never)
      await migration.up()
      for (const query of migration.getQueries()) await knex.raw(query as string)

      const started = await attempt(recent).first()
      expect(started).toMatchObject({ state: "paid", checks: 0 })
      const inMinutes = (new Date(started.next_check_at).getTime() - Date.now()) / 60_000
      expect(inMinutes).toBeGreaterThan(55)
      expect(inMinutes).toBeLessThanOrEqual(60)
      expect(await attempt(old).first()).toMatchObject({ state: "paid", checks: 3, next_check_at: null })
    })

    it("records a back-office capture notified three times, while the job, a status poll and a staff Sync run, once", async () => {
      const { checkout, medusaOrderId, payment } = await paidCardOrder()
      expect(payment.captures).toEqual([])
      const events = countWebhookEvents(getContainer())

      // The back office captures the authorization; the order's genuine notification arrives three times.
      const [authorization] = await kit.gatewayOperations(checkout.orderId, "AUTHORIZATION", "AUTHORIZED")
      await simulator.gateway(`/operations/${authorization.operationId}/captures`, { amount: "1999", currency: "EUR" })
      await notifyThreeTimes(checkout.orderId)

      await readWhileNotified(events, checkout.sessionId, payment.id)

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.captures.map((capture) => Number(capture.amount))).toEqual([19.99])
      expect(await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).toHaveLength(1)
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 0,
      })
    })

    it("records a back-office void notified three times, while the job, a status poll and a staff Sync run: Medusa's payment cancelled, nothing sent", async () => {
      const { checkout, medusaOrderId, payment } = await paidCardOrder()
      const events = countWebhookEvents(getContainer())

      // The back office voids the authorization (a refund of it, whole); the order's genuine notification arrives three times.
      const [authorization] = await kit.gatewayOperations(checkout.orderId, "AUTHORIZATION", "AUTHORIZED")
      const refundsPath = `${GATEWAY}/operations/${authorization.operationId}/refunds`
      await simulator.gateway(`/operations/${authorization.operationId}/refunds`, { amount: "1999", currency: "EUR" })
      const sentBefore = (await kit.requests("POST", refundsPath)).length
      await notifyThreeTimes(checkout.orderId)

      await readWhileNotified(events, checkout.sessionId, payment.id)

      const [cancelled] = await getContainer().resolve(Modules.PAYMENT).listPayments({ id: payment.id })
      expect(cancelled.canceled_at).not.toBeNull()
      expect(await kit.requests("POST", refundsPath)).toHaveLength(sentBefore)
      expect(await kit.gatewayOperations(checkout.orderId, "VOID", "VOIDED")).toHaveLength(1)
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 0,
        refundedMinor: 0,
      })
    })

    it("records a capture the back office cancelled, notified three times while the job, a status poll and a staff Sync run, as one refund naming the cancel", async () => {
      const { checkout, medusaOrderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      const [capture] = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      const events = countWebhookEvents(getContainer())

      // The back office cancels the capture (its authorization comes back); the order's genuine notification arrives three times.
      const cancel = await simulator.gateway<{ operationId: string }>(`/operations/${capture.operationId}/cancels`, {
        description: "Cancelled in the back office",
      })
      await notifyThreeTimes(checkout.orderId)

      await readWhileNotified(events, checkout.sessionId, payment.id)

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.refunds.map((refund) => Number(refund.amount))).toEqual([19.99])
      const { data } = await getContainer()
        .resolve("query")
        .graph({ entity: "refund", fields: ["id", "metadata"], filters: { id: recorded.refunds[0].id } })
      expect(data[0].metadata).toEqual({
        nexi_operation_id: cancel.operationId,
        nexi_cancelled_capture_id: capture.operationId,
      })
      // Recorded, not sent: the gateway holds its one cancel and no refund.
      expect(await kit.requests("POST", `${GATEWAY}/operations/*/refunds`)).toEqual([])
      expect(await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).toEqual([])
    })

    /**
     * A captured order refunded 5.00, whose Medusa refund is then deleted, as Medusa does when
     * its own update fails after the provider answered: the gateway refunded, the ledger's write
     * names the refund, and the refund's row is gone.
     */
    async function refundMedusaDropped() {
      const { checkout, medusaOrderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 5 } })
      const [sent] = (await kit.paymentsOfOrder(medusaOrderId))[0].refunds
      await getContainer().resolve(Modules.PAYMENT).deleteRefunds([sent.id])
      expect((await kit.paymentsOfOrder(medusaOrderId))[0].refunds).toEqual([])
      return { checkout, medusaOrderId, payment }
    }

    /** The sync of the payment, twice: the second read must find nothing more to record. */
    async function syncTwice(sessionId: string) {
      for (let read = 0; read < 2; read++) {
        await reconcileSession(getContainer(), { id: sessionId, provider_id: NEXI_CARD_PROVIDER })
      }
    }

    it("records, once, a refund the gateway made whose Medusa refund Medusa deleted afterwards", async () => {
      const { checkout, medusaOrderId } = await refundMedusaDropped()

      await syncTwice(checkout.sessionId)

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
      expect(await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).toHaveLength(1)
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 500,
      })
    })

    it("takes over, when staff refund again before the sync, a refund whose Medusa refund Medusa deleted afterwards", async () => {
      const { checkout, medusaOrderId, payment } = await refundMedusaDropped()

      // Staff see 0 refunded and refund the 5.00 again; the job runs after.
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id, amount: 5 } })
      await reconcileSession(getContainer(), { id: checkout.sessionId, provider_id: NEXI_CARD_PROVIDER })

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
      expect(await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).toHaveLength(1)
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 500,
      })
    })

    it("records, once, a capture the gateway made whose Medusa capture Medusa deleted afterwards", async () => {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      const medusaOrderId = completed.body.order.id as string
      const [authorized] = await kit.paymentsOfOrder(medusaOrderId)
      const payments = getContainer().resolve(Modules.PAYMENT)
      const { data: authorizedData } = await payments.retrievePayment(authorized.id, { select: ["data"] })
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: authorized.id } })
      // What Medusa leaves when its own update fails after the provider answered: no capture row,
      // the payment neither captured nor holding the capture's data.
      const [sent] = (await kit.paymentsOfOrder(medusaOrderId))[0].captures
      await payments.deleteCaptures([sent.id])
      await payments.updatePayment({ id: authorized.id, captured_at: null, data: authorizedData } as never)
      expect((await kit.paymentsOfOrder(medusaOrderId))[0].captures).toEqual([])

      await syncTwice(checkout.sessionId)

      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.captures.map((capture) => Number(capture.amount))).toEqual([19.99])
      expect(await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")).toHaveLength(1)
      expect(await expectBooksAgree(kit, checkout.orderId, medusaOrderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 0,
      })
      // The capture's write is now held by the capture that records it: a refund finds it Medusa's.
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: authorized.id, amount: 5 } })
      expect(await kit.gatewayOperations(checkout.orderId, "REFUND", "REFUNDED")).toHaveLength(1)
    })

    it("reads the gateway once for a genuine notification of a payment Medusa already holds", async () => {
      const checkout = await kit.openCardCheckout()
      const events = countWebhookEvents(getContainer())
      await kit.pay(checkout.orderId, CARDS.approved, true)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const medusaOrderId = completed.body.order.id as string
      const [payment] = await kit.paymentsOfOrder(medusaOrderId)
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      const [capture] = await kit.gatewayOperations(checkout.orderId, "CAPTURE", "EXECUTED")
      await simulator.control("POST", "/settings/refunds", { mode: "pending" })
      await simulator.gateway(`/operations/${capture.operationId}/refunds`, { amount: "500", currency: "EUR" })
      // The payment's own notification is handled before the count starts.
      await eventually(async () => (events.count() >= 1 ? true : undefined))
      await settle()
      const orderReads = async () => (await kit.requests("GET", `${GATEWAY}/orders/*`)).length
      const readsBefore = await orderReads()

      // The refund settles and the gateway notifies once: one sync, one read of the order.
      await simulator.control("POST", "/refunds/settle", {})
      await eventually(async () => (events.count() >= 2 ? true : undefined))
      await settle()

      expect(await orderReads()).toBe(readsBefore + 1)
      const [recorded] = await kit.paymentsOfOrder(medusaOrderId)
      expect(recorded.refunds.map((refund) => Number(refund.amount))).toEqual([5])
    })

    it("reads nothing from the gateway for a notification whose token does not match, or whose order it never handed out", async () => {
      const checkout = await kit.openCardCheckout()
      const events = countWebhookEvents(getContainer())
      const orderReads = async () => (await kit.requests("GET", `${GATEWAY}/orders/*`)).length
      const readsBefore = await orderReads()
      const forged = (orderId: string) => ({
        eventId: crypto.randomUUID(),
        eventTime: new Date().toISOString(),
        securityToken: "guessed-token",
        operation: { orderId, operationType: "AUTHORIZATION", operationResult: "AUTHORIZED", operationAmount: "1999" },
      })

      await api.post("/hooks/payment/nexi_nexi", forged(checkout.orderId))
      await api.post("/hooks/payment/nexi_nexi", forged("NOSUCHORDER1"))
      await eventually(async () => (events.count() >= 2 ? true : undefined))
      // Both of Medusa's subscribers (core's and the plugin's) have had the events by now.
      await settle()

      expect(await orderReads()).toBe(readsBefore)
      expect((await kit.session(checkout.sessionId)).status).toBe("pending")
    })
  },
})

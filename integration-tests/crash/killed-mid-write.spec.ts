/**
 * A store killed (SIGKILL) in the middle of a capture or refund, then started again. Medusa's
 * payment module saves its capture or refund row before it calls the provider and deletes it
 * only in a `catch` of the same process, so after a kill the row stands, with the ledger's
 * write never settled. The plugin must match that write to the row by Medusa's id: the money
 * is that row's (or, never sent, is sent now under the write's own key), never "a rollback"
 * for the next request to take over. A saved card's charge (POST /orders/mit) killed the same
 * way leaves its staff session waiting and its write requested: staff pressing again on the
 * restarted store resume that attempt, under its gateway order id and key, and the card is
 * charged once. A payment link's creation (POST /orders/paybylink) killed so is found again:
 * one link at the gateway. A mobile payment's start killed so (Medusa's session survives,
 * without the transaction) is found by the job under its key and reversed while it waits in
 * the shopper's app. An XPay Build payment whose finalize (POST /build/finalize_payment) the
 * store was killed in is recorded by the job, which settles the finalize from the Build
 * session's state; the shopper's finalize afterwards sends nothing.
 *
 * The store that is killed is `medusa start` in integration-tests/crash-store, a child
 * process; the jest process boots the same store (medusaIntegrationTestRunner) to seed the
 * shop and read the books. The simulator executes the write and then holds its answer (fault
 * "hang", phase "after"), or holds it without executing it (phase "before"); the child is
 * killed while the request is in flight. The job's two minutes before it looks at a write cut
 * off this way are skipped by moving the write's clock back; the job is then run here, as the
 * scheduled run would (the suite holds its lock, in PostgreSQL, so no scheduled run of either
 * process gets in the way).
 *
 * Needs the built plugin (`npm run build`). The child's output: .test-artifacts/crash-store-*.log.
 */
import path from "node:path"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { STALE_REQUEST_MS } from "../../src/core/send-once"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { startWorkerInstance, type WorkerInstance } from "../production/support/worker-instance"
import { adminHeaders } from "../support/admin-auth"
import { CARDS, CheckoutKit } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { expectBooksAgree } from "../support/money-books"
import { SavedCardOrders } from "../support/saved-card-orders"
import { simulatorForSuite } from "../support/simulator"
import { createCart, eventually, storeHeaders } from "../support/store"

const { freePort } = require("../../scripts/lib/free-port") as { freePort: () => Promise<number> }
/** The job of the built plugin, the one the store loaded. */
const { reconcilePendingSessions } = require("../../.medusa/server/src/reconciliation/reconcile-pending-sessions") as {
  reconcilePendingSessions: (
    container: unknown,
    now?: Date,
  ) => Promise<{
    checked: number
    outcomes: Record<string, number>
    paymentStarts?: Record<string, number>
  }>
}

jest.setTimeout(10 * 60_000)

const root = path.resolve(__dirname, "..", "..")
const storeDir = path.join(root, "integration-tests", "crash-store")
const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const REFUNDS = `${GATEWAY}/operations/*/refunds`
const CAPTURES = `${GATEWAY}/operations/*/captures`
const MIT = `${GATEWAY}/orders/mit`
const PAY_BY_LINK = `${GATEWAY}/orders/paybylink`
const FINALIZE = `${GATEWAY}/build/finalize_payment`
const MOBILE_REFUND = "/apm/ms/aapay/v2/transaction/refund/initializeWithIdempotency"
const RECONCILE_LOCK = "nexi:reconcile-pending-sessions"

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  cwd: storeDir,
  testSuite: ({ api, getContainer, dbConfig }) => {
    let kit: CheckoutKit
    let auth: { headers: Record<string, string> }
    let store: WorkerInstance | undefined
    let storeUrl = ""
    let boots = 0

    const ledger = () => getContainer().resolve<PaymentLedger>(NEXI_LEDGER_MODULE)

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      // Nobody completes carts or settles writes behind the test's back: the shopper's
      // storefront completes the cart, and the job runs when the test says.
      await simulator.control("POST", "/faults/notifications", { drop: 1000 })
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      auth = await adminHeaders(getContainer(), api)
      // Medusa 2.21's PostgreSQL locking never frees an expired lock of another owner: a
      // scheduled run that took the job's lock at boot would hold it for good. Cleared first.
      await getContainer()
        .resolve(ContainerRegistrationKeys.PG_CONNECTION)
        .raw("delete from locking where id = ?", [RECONCILE_LOCK])
      await holdReconcileLock(getContainer(), "crash-suite")
    })

    afterEach(async () => {
      await store?.stop()
      store = undefined
    })

    /** `medusa start` in the store folder, on this suite's database. */
    async function startStore() {
      const port = await freePort()
      boots += 1
      store = await startWorkerInstance({
        storeDir,
        port,
        mode: "shared",
        env: { DATABASE_URL: dbConfig.clientUrl },
        logFile: path.join(root, ".test-artifacts", `crash-store-${boots}.log`),
      })
      storeUrl = `http://127.0.0.1:${port}`
    }

    /** An admin request to the child store; the answer, or the error that ended it (a kill). */
    function adminPost(route: string, body: unknown) {
      return postToStore(route, body, auth.headers)
    }

    /** A request to the child store with these headers; the answer, or the error that ended it (a kill). */
    function postToStore(route: string, body: unknown, headers: Record<string, string>) {
      return fetch(`${storeUrl}${route}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(
        async (answer) => ({ status: answer.status, body: await answer.text() }),
        (error: Error) => ({ status: 0, body: error.message }),
      )
    }

    async function paidCardOrder() {
      const checkout = await kit.openCardCheckout()
      await kit.pay(checkout.orderId, CARDS.approved)
      const completed = await kit.completeAsShopper(checkout.cartId)
      expect(completed.body.type).toBe("order")
      const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
      return { checkout, orderId: completed.body.order.id as string, payment }
    }

    /**
     * Sends the admin request to the child store with the gateway holding its answer (every
     * transport attempt: the retries carry the same key), and kills the store once the
     * gateway has the request. `phase` "after": the gateway executed it; "before": it did not.
     */
    async function killedDuring(
      route: string,
      body: unknown,
      gatewayPath: string,
      phase: "before" | "after",
      headers = auth.headers,
    ) {
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: gatewayPath },
        times: 8,
        phase,
        action: { type: "hang" },
      })
      const sent = postToStore(route, body, headers)
      await eventually(async () => ((await kit.requests("POST", gatewayPath)).length ? true : undefined), {
        timeoutMs: 60_000,
      })
      await store?.kill()
      expect((await sent).status).toBe(0)
      await simulator.control("DELETE", "/faults")
    }

    /**
     * The job's two minutes before it looks at a write cut off this way, gone by (a gateway
     * order, or a mobile start's session): the write and the Medusa rows made with it are older.
     */
    async function cutOffLongAgo(gatewayOrderId: string) {
      const pg = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const longAgo = new Date(Date.now() - STALE_REQUEST_MS - 60_000)
      const cutOff = await pg.raw(
        "update nexi_money_write set created_at = ?, updated_at = ? where gateway_ref = ? and outcome = 'requested' returning medusa_ref",
        [longAgo, longAgo, gatewayOrderId],
      )
      const rows = cutOff.rows.map((write: { medusa_ref: string | null }) => write.medusa_ref).filter(Boolean)
      for (const table of ["capture", "refund"]) {
        if (rows.length) await pg.raw(`update ${table} set created_at = ? where id = any(?)`, [longAgo, rows])
      }
    }

    /** What Medusa shows staff of an order's money: its summary and its payment collection's totals. */
    async function medusaShows(orderId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: ["summary.*", "payment_collections.captured_amount", "payment_collections.refunded_amount"],
        filters: { id: orderId },
      })
      const [order] = data as Array<{
        summary: Record<string, unknown>
        payment_collections: Array<Record<string, unknown>>
      }>
      const [collection] = order.payment_collections
      return {
        paidTotal: Number(order.summary.paid_total),
        refundedTotal: Number(order.summary.refunded_total),
        pendingDifference: Number(order.summary.pending_difference),
        collectionCaptured: Number(collection.captured_amount),
        collectionRefunded: Number(collection.refunded_amount),
      }
    }

    const medusaRefunds = async (orderId: string) =>
      (await kit.paymentsOfOrder(orderId))[0].refunds.map((refund) => Number(refund.amount))
    const gatewayAmounts = async (orderId: string, type: string, result: string) =>
      (await kit.gatewayOperations(orderId, type, result)).map((operation) => operation.operationAmount)

    it("finds a mobile payment whose start the store was killed in, and reverses it while it waits in the app", async () => {
      const start = "/apm/ms/aapay/v2/transaction/payment/initializeWithIdempotency"
      const cart = await createCart(api, kit.publishableKey, {
        regionId: kit.regionId,
        variantId: kit.variantId,
        email: "mobile-shopper@example.com",
      })
      const { data: created } = await api.post(
        "/store/payment-collections",
        { cart_id: cart.id },
        storeHeaders(kit.publishableKey),
      )
      const collectionId = created.payment_collection.id as string
      await startStore()

      await killedDuring(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: "pp_nexi-apm-psp-b_nexi", data: { consumer_id: "+4712345678" } },
        start,
        "after",
        { "x-publishable-api-key": kit.publishableKey },
      )

      // Medusa's session survived the kill, without the transaction the service made for it.
      const [session] = await getContainer().resolve("payment").listPaymentSessions({
        payment_collection_id: collectionId,
      })
      expect(session.data.transaction_id).toBeUndefined()
      await cutOffLongAgo(session.id)
      const found = await reconcilePendingSessions(getContainer())
      expect(found).toMatchObject({ paymentStarts: { found: 1, refused: 0, pending: 0 } })
      const [write] = await ledger().writesOf(session.id)
      const transactionId = String(write.gateway_operation_id)
      expect(await ledger().findAttempt(transactionId)).toMatchObject({ state: "superseded", session_id: session.id })

      await reconcilePendingSessions(getContainer())

      expect((await simulator.apmTransaction(transactionId)).state).toBe("CANCELLED")
      expect(await ledger().findAttempt(transactionId)).toMatchObject({ state: "closed" })
      // The replay under the start's key named the transaction the killed call made: one payment.
      expect((await kit.requests("POST", start)).filter((request) => request.status === 202)).toHaveLength(1)
    })

    it("matches a refund the gateway made to Medusa's surviving row, and sends the next refund of the same amount", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      await startStore()

      await killedDuring(`/admin/payments/${payment.id}/refund`, { amount: 5 }, REFUNDS, "after")

      // Medusa's row survived the kill; the gateway made the refund.
      expect(await medusaRefunds(orderId)).toEqual([5])
      expect(await gatewayAmounts(checkout.orderId, "REFUND", "REFUNDED")).toEqual(["500"])
      const refundWrites = async () =>
        (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "refund")
      const [cutOff] = await refundWrites()
      expect(cutOff).toMatchObject({ outcome: "requested" })

      // The refund's workflow died before Medusa's bookkeeping: staff see nothing refunded.
      expect(await medusaShows(orderId)).toMatchObject({ paidTotal: 19.99, refundedTotal: 0, collectionRefunded: 0 })

      // Nobody acting: the job's run after the stale window brings Medusa to the gateway.
      await cutOffLongAgo(checkout.orderId)
      expect(await reconcilePendingSessions(getContainer())).toMatchObject({
        checked: 1,
        outcomes: { bookkeeping_finished: 1 },
      })
      expect(await refundWrites()).toEqual([
        expect.objectContaining({ outcome: "executed", claimed_by: cutOff.medusa_ref }),
      ])
      // As a refund never cut off shows it: the refund credited, the order owing nothing.
      const finished = {
        paidTotal: 19.99,
        refundedTotal: 5,
        pendingDifference: 0,
        collectionCaptured: 19.99,
        collectionRefunded: 5,
      }
      expect(await medusaShows(orderId)).toEqual(finished)
      // Staff's Sync after it (a copy of the job's read) finds nothing left to finish.
      await api.post(`/admin/nexi/payments/${payment.id}/sync`, {}, auth)
      expect(await medusaShows(orderId)).toEqual(finished)

      await startStore()
      const second = await adminPost(`/admin/payments/${payment.id}/refund`, { amount: 5 })
      expect(second.status).toBe(200)

      expect(await gatewayAmounts(checkout.orderId, "REFUND", "REFUNDED")).toEqual(["500", "500"])
      expect(await medusaRefunds(orderId)).toEqual([5, 5])
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 1000,
      })
      expect(await medusaShows(orderId)).toMatchObject({
        refundedTotal: 10,
        pendingDifference: 0,
        collectionRefunded: 10,
      })
      const writes = await ledger().writesOf(checkout.orderId)
      expect(writes.map((write) => write.claimed_by)).toEqual(writes.map((write) => write.medusa_ref))
    })

    it("sends a refund that never reached the gateway under its own key when Medusa's row survived", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      await startStore()

      await killedDuring(`/admin/payments/${payment.id}/refund`, { amount: 5 }, REFUNDS, "before")

      expect(await medusaRefunds(orderId)).toEqual([5])
      expect(await gatewayAmounts(checkout.orderId, "REFUND", "REFUNDED")).toEqual([])
      const refundWrites = async () =>
        (await ledger().writesOf(checkout.orderId)).filter((write) => write.kind === "refund")
      const [cutOff] = await refundWrites()

      await cutOffLongAgo(checkout.orderId)
      expect(await reconcilePendingSessions(getContainer())).toMatchObject({
        checked: 1,
        outcomes: { bookkeeping_finished: 1 },
      })

      expect(await gatewayAmounts(checkout.orderId, "REFUND", "REFUNDED")).toEqual(["500"])
      expect(await medusaShows(orderId)).toMatchObject({
        refundedTotal: 5,
        pendingDifference: 0,
        collectionRefunded: 5,
      })
      const keys = (await kit.requests("POST", REFUNDS)).map((request) => request.idempotencyKey)
      expect(new Set(keys)).toEqual(new Set([cutOff.idempotency_key]))
      expect(await refundWrites()).toEqual([
        expect.objectContaining({ outcome: "executed", claimed_by: cutOff.medusa_ref }),
      ])
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({
        capturedMinor: 1999,
        refundedMinor: 500,
      })
    })

    it("shows a mobile refund the service made before the store was killed, with nobody acting", async () => {
      const { orderId, transactionId, payment } = await kit.paidMobileOrder("+4712345678")
      await startStore()

      await killedDuring(`/admin/payments/${payment.id}/refund`, { amount: 5 }, MOBILE_REFUND, "after")

      expect(await medusaRefunds(orderId)).toEqual([5])
      expect(await medusaShows(orderId)).toMatchObject({ refundedTotal: 0, collectionRefunded: 0 })

      await cutOffLongAgo(transactionId)
      expect(await reconcilePendingSessions(getContainer())).toMatchObject({
        checked: 1,
        outcomes: { bookkeeping_finished: 1 },
      })
      expect(await medusaShows(orderId)).toEqual({
        paidTotal: 19.99,
        refundedTotal: 5,
        pendingDifference: 0,
        collectionCaptured: 19.99,
        collectionRefunded: 5,
      })
      // One refund: the killed call and the job's look-up carried the write's one key.
      const keys = (await kit.requests("POST", MOBILE_REFUND)).map((request) => request.idempotencyKey)
      expect(new Set(keys)).toEqual(new Set([expect.any(String)]))
      expect(await medusaRefunds(orderId)).toEqual([5])
    })

    it("records a partial capture the gateway made once, as Medusa's surviving capture", async () => {
      const { checkout, orderId, payment } = await paidCardOrder()
      await startStore()

      await killedDuring(`/admin/payments/${payment.id}/capture`, { amount: 5 }, CAPTURES, "after")

      expect((await kit.paymentsOfOrder(orderId))[0].captures.map((capture) => Number(capture.amount))).toEqual([5])
      expect(await gatewayAmounts(checkout.orderId, "CAPTURE", "EXECUTED")).toEqual(["500"])
      const [cutOff] = await ledger().writesOf(checkout.orderId)

      expect(await medusaShows(orderId)).toMatchObject({ paidTotal: 0, collectionCaptured: 0 })

      await cutOffLongAgo(checkout.orderId)
      expect(await reconcilePendingSessions(getContainer())).toMatchObject({
        checked: 1,
        outcomes: { bookkeeping_finished: 1 },
      })
      // A second run finds nothing left to record either.
      await reconcilePendingSessions(getContainer())
      expect(await medusaShows(orderId)).toMatchObject({ paidTotal: 5, refundedTotal: 0, collectionCaptured: 5 })

      expect((await kit.paymentsOfOrder(orderId))[0].captures.map((capture) => Number(capture.amount))).toEqual([5])
      expect(
        (await ledger().writesOf(checkout.orderId)).map((write) => [write.kind, write.outcome, write.claimed_by]),
      ).toEqual([["capture", "executed", cutOff.medusa_ref]])
      expect(await expectBooksAgree(kit, checkout.orderId, orderId)).toEqual({ capturedMinor: 500, refundedMinor: 0 })
    })

    /**
     * An order edit's 19.99 owed, charged to the customer's saved card (consent to merchant
     * charges) by staff on the child store, killed while the gateway holds the charge's answer.
     */
    async function mitChargeKilled(phase: "before" | "after") {
      const orders = new SavedCardOrders(api, getContainer, simulator, kit, auth)
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true, allow_merchant_charges: true })
      await orders.editAddingAnItem(orderId)
      await startStore()
      const route = `/admin/nexi/medusa-orders/${orderId}/saved-card-charges`
      await killedDuring(route, { payment_method_id: card.id }, MIT, phase)
      const [cutOff] = (await ledger().writesToSettle(new Date(Date.now() + 3_600_000), 50)).filter(
        (write) => write.kind === "mit_charge",
      )
      expect(cutOff).toMatchObject({ outcome: "requested", amount_minor: "1999" })
      await startStore()
      return { orders, orderId, route, card, cutOff }
    }

    /** One charge at the gateway, under the attempt's one key, recorded once as the order's authorized payment. */
    async function expectChargedOnce(orders: SavedCardOrders, orderId: string, gatewayOrderId: string, key: string) {
      expect((await kit.gatewayOrder(gatewayOrderId)).operations).toEqual([
        expect.objectContaining({ operationAmount: "1999" }),
      ])
      const keys = (await kit.requests("POST", MIT)).map((request) => request.idempotencyKey)
      expect(new Set(keys)).toEqual(new Set([key]))
      const writes = (await ledger().writesOf(gatewayOrderId)).filter((write) => write.kind === "mit_charge")
      expect(writes).toEqual([
        expect.objectContaining({ outcome: "executed", gateway_operation_id: expect.any(String) }),
      ])
      const authorized = (await orders.orderView(orderId)).payment_collections.filter(
        (collection: { status: string }) => collection.status === "authorized",
      )
      expect(authorized).toHaveLength(1)
      expect(authorized[0].payments).toEqual([expect.objectContaining({ amount: 19.99 })])
    }

    it("finds a saved card's charge the gateway made before the store was killed when staff press again, never charging twice", async () => {
      const { orders, orderId, route, card, cutOff } = await mitChargeKilled("after")

      // The restarted store resumes the same attempt: same session, same gateway order id, same key.
      const again = await adminPost(route, { payment_method_id: card.id })
      expect(again.status).toBe(200)
      expect(JSON.parse(again.body).payment.gateway_order_id).toBe(cutOff.gateway_ref)
      await expectChargedOnce(orders, orderId, cutOff.gateway_ref, cutOff.idempotency_key)

      // Nothing is left for the job, and a third press finds the order paid.
      await cutOffLongAgo(cutOff.gateway_ref)
      await reconcilePendingSessions(getContainer())
      const third = await adminPost(route, { payment_method_id: card.id })
      expect(third.status).toBe(400)
      expect(JSON.parse(third.body).message).toMatch(/is already paid/)
      await expectChargedOnce(orders, orderId, cutOff.gateway_ref, cutOff.idempotency_key)
    })

    it("charges a saved card once when the store was killed before the gateway made the charge", async () => {
      const { orders, orderId, route, card, cutOff } = await mitChargeKilled("before")
      expect(
        await kit.gatewayOrder(cutOff.gateway_ref).then(
          (order) => order.operations,
          () => [],
        ),
      ).toEqual([])

      const again = await adminPost(route, { payment_method_id: card.id })
      expect(again.status).toBe(200)
      await expectChargedOnce(orders, orderId, cutOff.gateway_ref, cutOff.idempotency_key)
    })

    it("answers the payment link the gateway created before the store was killed when staff press again: one link", async () => {
      const { orderId, payment } = await paidCardOrder()
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: payment.id } })
      const orders = new SavedCardOrders(api, getContainer, simulator, kit, auth)
      await orders.editAddingAnItem(orderId)
      await startStore()

      await killedDuring("/admin/nexi/payment-links", { order_id: orderId }, PAY_BY_LINK, "after")
      const [cutOff] = await ledger().writesOfMedusaRef(orderId, "link_creation")
      expect(cutOff).toMatchObject({ outcome: "requested" })

      await startStore()
      const again = await adminPost("/admin/nexi/payment-links", { order_id: orderId })
      expect(again.status).toBe(201)
      const open = (JSON.parse(again.body).payment_links as Array<{ state: string; gateway_order_id: string }>).filter(
        (link) => link.state === "open",
      )
      expect(open).toEqual([expect.objectContaining({ gateway_order_id: cutOff.gateway_ref })])
      const gatewayLinks = (await simulator.gateway<{ paymentLinks: unknown[] }>(`/orders/${cutOff.gateway_ref}`))
        .paymentLinks
      // The contract takes no key for a link: a second POST of the attempt's order id is
      // refused, and the order's links tell what the first one made.
      expect(gatewayLinks).toHaveLength(1)
      expect(
        (await ledger().writesOf(cutOff.gateway_ref)).filter((write) => write.kind === "link_creation"),
      ).toMatchObject([{ outcome: "executed" }])
    })

    it("records a Build payment whose finalize the store was killed in, by the job, which settles the finalize: paid once", async () => {
      const checkout = await kit.openBuildCheckoutReady()
      await startStore()

      await killedDuring(
        `/store/nexi/payment-sessions/${checkout.sessionId}/finalize`,
        { cart_id: checkout.cartId },
        FINALIZE,
        "after",
        storeHeaders(kit.publishableKey).headers,
      )

      // The gateway made the payment; the finalize's write was cut off; nobody completed the cart.
      expect(await gatewayAmounts(checkout.orderId, "AUTHORIZATION", "AUTHORIZED")).toEqual(["1999"])
      expect(await ledger().writesOf(checkout.orderId)).toEqual([
        expect.objectContaining({ kind: "build_finalize", outcome: "requested" }),
      ])
      expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])

      // Nobody acting: the job's run once the payment is due records it and completes the cart.
      await cutOffLongAgo(checkout.orderId)
      await reconcilePendingSessions(getContainer(), new Date(Date.now() + 10 * 60_000))
      const [orderId] = await kit.ordersOfCart(checkout.cartId)
      const payments = await kit.paymentsOfOrder(orderId)
      expect(payments.map((payment) => [Number(payment.amount), payment.captured_at])).toEqual([[19.99, null]])
      // The finalize is settled from the Build session's state: no ledger issue is left for staff.
      expect(await ledger().writesOf(checkout.orderId)).toEqual([
        expect.objectContaining({ kind: "build_finalize", outcome: "executed" }),
      ])

      // The shopper's page, finalizing again, finds the cart completed; nothing is sent.
      const again = await kit.finalizeBuild(checkout)
      expect([again.status, again.body.message]).toEqual([
        409,
        `Cart ${checkout.cartId} is already completed: there is nothing to pay.`,
      ])
      expect(await kit.requests("POST", FINALIZE)).toHaveLength(1)
      expect(await gatewayAmounts(checkout.orderId, "AUTHORIZATION", "AUTHORIZED")).toEqual(["1999"])
    })
  },
})

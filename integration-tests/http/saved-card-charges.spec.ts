/**
 * Staff charge a customer's saved card for what an order owes (POST /orders/mit), against a
 * real Medusa and the simulator over HTTP: consent when the card is saved at checkout, an order
 * edit collected by a consented card until Medusa shows the order paid, a CIT card refused
 * before anything is sent, a decline that changes nothing in Medusa, a lost answer settled once
 * and never charged twice, and bad input (src/staff/saved-card-charge.ts, docs/saved-cards.md).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { adminHeaders } from "../support/admin-auth"
import { answerOf, SavedCardOrders } from "../support/saved-card-orders"
import { simulatorForSuite } from "../support/simulator"
import { seedEuroShop } from "../support/store"

jest.setTimeout(5 * 60_000)

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
/** Past the end of the test card's expiry month (12/30) by the simulator's clock: the issuer declines. */
const AFTER_CARD_EXPIRY_MS = Date.parse("2031-02-01T00:00:00Z") - Date.now()

type Headers = { headers: Record<string, string> }

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let regionId: string
    let variantId: string
    let staff: Headers
    let orders: SavedCardOrders

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      ;({ publishableKey, regionId, variantId } = await seedEuroShop(container))
      staff = await adminHeaders(container, api)
      orders = new SavedCardOrders(api, getContainer, simulator, { publishableKey, regionId, variantId }, staff)
    })

    /** The order as Medusa's admin shows it: its payment status and what it still owes. */
    async function adminOrder(orderId: string) {
      const { data } = await api.get(`/admin/orders/${orderId}?fields=id,payment_status,*summary`, staff)
      return data.order as { payment_status: string; summary: { pending_difference: number } }
    }

    const charge = (orderId: string, body: unknown) =>
      answerOf(api.post(`/admin/nexi/medusa-orders/${orderId}/saved-card-charges`, body, staff))
    const options = (orderId: string) =>
      answerOf(api.get(`/admin/nexi/medusa-orders/${orderId}/saved-card-charges`, staff))

    async function gatewayRequests(method: string, path: string) {
      const { requests } = await simulator.control<{
        requests: Array<{ method: string; path: string; status: number; idempotencyKey?: string }>
      }>("GET", "/requests")
      const pattern = new RegExp(`^${GATEWAY}${path.replace(/\*/g, "[^/]+")}$`)
      return requests.filter((request) => request.method === method && pattern.test(request.path))
    }

    const gatewayOrder = (orderId: string) =>
      simulator.gateway<{ orderStatus: any; operations: Array<Record<string, any>> }>(`/orders/${orderId}`)

    const mitWrites = async () =>
      (
        await container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE).writesToSettle(new Date(Date.now() + 3_600_000), 50)
      ).filter((write) => write.kind === "mit_charge")

    const unpaidCollection = (order: any) =>
      order.payment_collections.find((collection: { status: string }) => collection.status === "not_paid")

    it("collects an order edit's difference with a card saved with consent, until Medusa shows the order paid", async () => {
      const { customer, orderId, card } = await orders.orderWithSavedCard({
        save_card: true,
        allow_merchant_charges: true,
      })
      expect(card.contract_type).toBe("MIT_UNSCHEDULED")
      const [contract] = (
        await simulator.control<{ contracts: Array<Record<string, string>> }>(
          "GET",
          `/contracts?customerId=${card.customer_ref}`,
        )
      ).contracts
      expect(contract).toMatchObject({ contractId: card.contract_id, contractType: "MIT_UNSCHEDULED" })
      // The customer's own list and the admin's say the card allows merchant charges.
      const listed = await answerOf(api.get("/store/nexi/saved-cards", customer.auth))
      expect(listed.body.saved_cards).toEqual([expect.objectContaining({ id: card.id, allows_merchant_charges: true })])
      const staffList = await answerOf(api.get(`/admin/nexi/customers/${customer.id}/saved-cards`, staff))
      expect(staffList.body.saved_cards).toEqual([
        expect.objectContaining({ id: card.id, allows_merchant_charges: true }),
      ])

      await orders.editAddingAnItem(orderId)
      const edited = await orders.orderView(orderId)
      expect(unpaidCollection(edited)).toMatchObject({ amount: 19.99 })
      const offered = await options(orderId)
      expect(offered.body).toEqual({
        owed: { amount: "19.99", currency: "EUR" },
        refusal: null,
        cards: [{ id: card.id, circuit: "VISA", masked_pan: "***7289", expiry: null }],
      })

      const charged = await charge(orderId, { payment_method_id: card.id, reason: "Second scarf added by phone" })
      expect(charged.status).toBe(200)
      const gatewayOrderId = charged.body.payment.gateway_order_id
      expect(charged.body).toMatchObject({
        order_id: orderId,
        status: "authorized",
        message: `Charged 19.99 EUR to VISA ***7289 (gateway order ${gatewayOrderId}): authorized; capture it from the order's payments.`,
      })
      const atGateway = await gatewayOrder(gatewayOrderId)
      expect(atGateway.orderStatus.order).toMatchObject({
        amount: "1999",
        currency: "EUR",
        customerId: card.customer_ref,
        description: "Second scarf added by phone",
      })
      expect(atGateway.operations).toEqual([
        expect.objectContaining({
          operationType: "AUTHORIZATION",
          operationResult: "AUTHORIZED",
          channel: "BACKOFFICE",
        }),
      ])
      const [request] = await gatewayRequests("POST", "/orders/mit")
      expect(request.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      const write = (await container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE).writesOf(gatewayOrderId)).find(
        (candidate) => candidate.kind === "mit_charge",
      )
      expect(write).toMatchObject({ outcome: "executed", origin: "staff", amount_minor: "1999", currency: "EUR" })

      // Recorded on the edit's payment collection; captured with Medusa's own workflow, the order owes nothing.
      const authorized = await orders.orderView(orderId)
      const collection = authorized.payment_collections.find((candidate: { payments: Array<{ id: string }> }) =>
        candidate.payments.some((payment) => payment.id === charged.body.payment.payment_id),
      )
      expect(collection.status).toBe("authorized")
      await capturePaymentWorkflow(container).run({ input: { payment_id: charged.body.payment.payment_id } })
      expect((await gatewayOrder(gatewayOrderId)).orderStatus.capturedAmount).toBe("1999")
      const paid = await adminOrder(orderId)
      expect(paid.payment_status).toBe("captured")
      expect(Number(paid.summary.pending_difference)).toBe(0)

      // Pressing again charges nothing: the order owes nothing.
      const again = await charge(orderId, { payment_method_id: card.id })
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/^Order #\d+ is already paid/)
      expect(await gatewayRequests("POST", "/orders/mit")).toHaveLength(1)
    })

    it("refuses a card saved without consent (CIT) with a clear message, sending and creating nothing", async () => {
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true })
      expect(card.contract_type).toBe("CIT")
      await orders.editAddingAnItem(orderId)
      const before = await orders.orderView(orderId)
      expect((await options(orderId)).body.cards).toEqual([])

      const refused = await charge(orderId, { payment_method_id: card.id })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toBe(
        `payment_method_id: the customer saved card ${card.id} for paying themselves only (contract CIT), without consent to charges by the shop; nothing was charged. Ask the customer to pay, or send them a payment link.`,
      )
      expect(await gatewayRequests("POST", "/orders/mit")).toHaveLength(0)
      const after = await orders.orderView(orderId)
      expect(unpaidCollection(after).payment_sessions).toEqual(unpaidCollection(before).payment_sessions)
      expect(after.payment_collections).toHaveLength(before.payment_collections.length)
    })

    it("says why a charge was declined and changes nothing in Medusa but the failed session, for a smaller amount too", async () => {
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true, allow_merchant_charges: true })
      await orders.editAddingAnItem(orderId)
      await simulator.control("POST", "/clock", { offsetMs: AFTER_CARD_EXPIRY_MS })
      const before = await adminOrder(orderId)

      // The collection, set to the 5.00 typed, owes all of the 19.99 again after the decline.
      const declined = await charge(orderId, { payment_method_id: card.id, amount: "5.00" })
      expect(declined.status).toBe(422)
      expect(declined.body.message).toBe("The card was not accepted: The card issuer declined the payment.")
      const after = await orders.orderView(orderId)
      const unpaid = unpaidCollection(after)
      expect(unpaid).toMatchObject({ amount: 19.99 })
      expect(unpaid.payments).toEqual([])
      expect(unpaid.payment_sessions.map((session: { status: string }) => session.status)).toEqual(["error"])
      const shown = await adminOrder(orderId)
      expect(shown.payment_status).toBe(before.payment_status)
      expect(Number(shown.summary.pending_difference)).toBe(19.99)
    })

    /** An order edit whose charge the gateway made but whose every answer was lost, the order unreadable too. */
    async function chargeWithLostAnswer() {
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true, allow_merchant_charges: true })
      await orders.editAddingAnItem(orderId)
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: `${GATEWAY}/orders/mit` },
        phase: "after",
        action: { type: "reset" },
      })
      await simulator.control("POST", "/faults", {
        match: { method: "GET", path: `${GATEWAY}/orders/*` },
        action: { type: "status", status: 503 },
      })
      const lost = await charge(orderId, { payment_method_id: card.id })
      expect(lost.status).toBe(500)
      expect(lost.body.message).toMatch(/Send the same request again/)
      const [unknown] = await mitWrites()
      expect(unknown).toMatchObject({ outcome: "unknown", amount_minor: "1999" })
      const posts = await gatewayRequests("POST", "/orders/mit")
      // The transport's retries carried the one key of the attempt.
      expect(new Set(posts.map((post) => post.idempotencyKey)).size).toBe(1)
      await simulator.control("DELETE", "/faults")
      return { orderId, card, gatewayOrderId: unknown.gateway_ref, posts: posts.length }
    }

    /** The edit's difference is recorded once: one authorized payment of 19.99, one charge at the gateway. */
    async function expectChargedOnce(orderId: string, gatewayOrderId: string, posts: number) {
      expect((await gatewayOrder(gatewayOrderId)).operations).toHaveLength(1)
      expect(await gatewayRequests("POST", "/orders/mit")).toHaveLength(posts)
      const authorized = (await orders.orderView(orderId)).payment_collections.filter(
        (collection: { status: string }) => collection.status === "authorized",
      )
      expect(authorized).toHaveLength(1)
      expect(authorized[0].payments).toEqual([expect.objectContaining({ amount: 19.99 })])
    }

    it("records a charge whose answer was lost when staff press again, never charging twice", async () => {
      const { orderId, card, gatewayOrderId, posts } = await chargeWithLostAnswer()

      // The same attempt is resumed: the gateway's order is read first, and the charge found there is recorded.
      const again = await charge(orderId, { payment_method_id: card.id })
      expect(again.status).toBe(200)
      expect(again.body.payment.gateway_order_id).toBe(gatewayOrderId)
      const settled = (await container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE).writesOf(gatewayOrderId)).filter(
        (write) => write.kind === "mit_charge",
      )
      expect(settled).toEqual([
        expect.objectContaining({ outcome: "executed", gateway_operation_id: expect.any(String) }),
      ])
      await expectChargedOnce(orderId, gatewayOrderId, posts)

      // The job finds nothing left to do, and a third press finds the order paid.
      await reconcilePendingSessions(container, new Date(Date.now() + 3 * 60_000))
      const third = await charge(orderId, { payment_method_id: card.id })
      expect(third.status).toBe(400)
      expect(third.body.message).toMatch(/^Order #\d+ is already paid/)
      await expectChargedOnce(orderId, gatewayOrderId, posts)
    })

    it("settles a charge whose answer was lost from the job, and staff pressing again charge nothing more", async () => {
      const { orderId, card, gatewayOrderId, posts } = await chargeWithLostAnswer()

      // The job reads the gateway's order once it answers, and settles the write from it, like a MOTO charge.
      await reconcilePendingSessions(container, new Date(Date.now() + 3 * 60_000))
      const settled = (await container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE).writesOf(gatewayOrderId)).find(
        (write) => write.kind === "mit_charge",
      )
      expect(settled).toMatchObject({ outcome: "executed", gateway_operation_id: expect.any(String) })

      const again = await charge(orderId, { payment_method_id: card.id })
      // Whether the job already recorded the payment (the order is paid) or staff's press records it,
      // the charge is the one the gateway made.
      if (again.status === 200) expect(again.body.payment.gateway_order_id).toBe(gatewayOrderId)
      else expect(again.body.message).toMatch(/^Order #\d+ is already paid/)
      await expectChargedOnce(orderId, gatewayOrderId, posts)
    })

    it("records a charge once when the job finds it paid while staff's request is recording it", async () => {
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true, allow_merchant_charges: true })
      await orders.editAddingAnItem(orderId)
      // The charge's answer comes 3 s after the gateway made it, and every read of an order takes
      // 5 s: the job finds the charge made before staff's request hears of it, and staff's request
      // starts recording it while the job's recording still waits for its read.
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: `${GATEWAY}/orders/mit` },
        times: 1,
        phase: "after",
        action: { type: "latency", ms: 3_000 },
      })
      await simulator.control("POST", "/faults", {
        match: { method: "GET", path: `${GATEWAY}/orders/*` },
        action: { type: "latency", ms: 5_000 },
      })
      const staffCharge = charge(orderId, { payment_method_id: card.id })
      await new Promise((resolve) => setTimeout(resolve, 1_500))

      const [job, charged] = await Promise.allSettled([
        reconcilePendingSessions(container, new Date(Date.now() + 3 * 60_000)),
        staffCharge,
      ])
      await simulator.control("DELETE", "/faults")

      expect([job.status, charged.status]).toEqual(["fulfilled", "fulfilled"])
      const answer = (charged as PromiseFulfilledResult<Awaited<ReturnType<typeof charge>>>).value
      expect(answer.status).toBe(200)
      await expectChargedOnce(orderId, answer.body.payment.gateway_order_id, 1)
    })

    it("charges no saved card while a payment link for the same order is being created, and says so", async () => {
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true, allow_merchant_charges: true })
      await orders.editAddingAnItem(orderId)
      // The gateway holds the link's answer longer than a staff request waits for the order's lock.
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: `${GATEWAY}/orders/paybylink` },
        times: 1,
        phase: "after",
        action: { type: "latency", ms: 8_000 },
      })
      const link = answerOf(api.post("/admin/nexi/payment-links", { order_id: orderId }, staff))
      await new Promise((resolve) => setTimeout(resolve, 500))

      const refused = await charge(orderId, { payment_method_id: card.id })

      expect({ status: refused.status, message: refused.body.message }).toEqual({
        status: 400,
        message:
          "A saved-card charge or another payment by staff for this order is already under way. Wait for it to finish, then look again.",
      })
      expect(await gatewayRequests("POST", "/orders/mit")).toHaveLength(0)
      expect((await link).status).toBe(201)
    })

    it("charges a smaller amount the staff typed, and refuses bad input with 400 naming the field", async () => {
      const { orderId, card } = await orders.orderWithSavedCard({ save_card: true, allow_merchant_charges: true })
      await orders.editAddingAnItem(orderId)
      for (const [body, message] of [
        [{}, "payment_method_id: is required"],
        [{ payment_method_id: "card_1" }, "payment_method_id: must be a saved card id (nexcard_...)"],
        [
          { payment_method_id: card.id, amount: 5 },
          'amount: must be a decimal number in the order\'s currency, as a string like "12.50"',
        ],
        [{ payment_method_id: card.id, amount: "20.00" }, "amount: 20.00 EUR is more than the order owes (19.99 EUR)"],
        [{ payment_method_id: card.id, amount: "1.234" }, "amount: EUR has 2 decimals; 1.234 has more"],
        [{ payment_method_id: card.id, surprise: true }, "surprise: is not accepted here"],
        [
          { payment_method_id: "nexcard_unknown" },
          "payment_method_id: there is no saved card nexcard_unknown of this order's customer.",
        ],
      ] as const) {
        const refused = await charge(orderId, body)
        expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 400, message })
      }
      expect((await answerOf(api.post("/admin/nexi/medusa-orders/nope/saved-card-charges", {}, staff))).status).toBe(
        400,
      )
      expect(await gatewayRequests("POST", "/orders/mit")).toHaveLength(0)

      const part = await charge(orderId, { payment_method_id: card.id, amount: "5.00" })
      expect(part.status).toBe(200)
      expect((await gatewayOrder(part.body.payment.gateway_order_id)).orderStatus.order.amount).toBe("500")
      const payments = (await orders.orderView(orderId)).payment_collections.flatMap(
        (collection: { payments: Array<{ id: string; amount: number }> }) => collection.payments,
      )
      expect(payments.find((payment: { id: string }) => payment.id === part.body.payment.payment_id)).toMatchObject({
        amount: 5,
      })
    })
  },
})

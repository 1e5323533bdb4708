/**
 * Nexi payment links for what an order owes, end to end: a real Medusa store on PostgreSQL,
 * staff logged in through Medusa's login route, the gateway simulator over HTTP paying the
 * links and sending their notifications to Medusa's webhook route.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createOrderWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { NexiLedgerService } from "../../src/modules/nexi-ledger/service"
import { NEXI_LEDGER_MODULE } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import type { NexiPaymentLink, NexiPaymentLinksResponse } from "../../src/staff/contract"
import { adminHeaders } from "../support/admin-auth"
import { simulatorForSuite } from "../support/simulator"
import {
  ADDRESS,
  completeCart,
  createCart,
  eventually,
  NEXI_CARD_PROVIDER,
  seedEuroShop,
  startPaymentSession,
} from "../support/store"

jest.setTimeout(300_000)

const APPROVED = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
/** Medusa's webhook route emits its event 5 seconds late; a notification is handled after that. */
const WEBHOOK_DELAY_MS = 8_000

const simulator = simulatorForSuite()

type Answer<T> = { status: number; data: T }
type Headers = { headers: Record<string, string> }

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let salesChannelId: string
    let regionId: string
    let variantId: string
    let staff: Headers

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      await simulator.control("DELETE", "/faults")
      const shop = await seedEuroShop(container)
      ;({ publishableKey, salesChannelId, regionId, variantId } = shop)
      staff = await adminHeaders(container, api)
    })

    async function call<T = any>(method: "GET" | "POST", url: string, body?: unknown, config: Headers = staff) {
      const options = { ...config, validateStatus: () => true }
      const answer = method === "GET" ? await api.get(url, options) : await api.post(url, body ?? {}, options)
      return answer as Answer<T>
    }

    async function medusaOrder(orderId: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "id",
          "status",
          "is_draft_order",
          "summary.*",
          "payment_collections.id",
          "payment_collections.status",
          "payment_collections.amount",
          "payment_collections.payments.*",
        ],
        filters: { id: orderId },
      })
      return data[0] as any
    }

    const paymentsOf = async (orderId: string) =>
      (await medusaOrder(orderId)).payment_collections.flatMap((collection: any) => collection.payments)

    /** A shopper pays 1 x 19.99 EUR on the hosted page and the cart completes: an order that owes nothing. */
    async function paidOrder(email = `giulia-${randomUUID().slice(0, 8)}@example.com`) {
      const cart = await createCart(api, publishableKey, { regionId, variantId, email })
      const { session } = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER)
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, { ...APPROVED, awaitNotification: false })
      const completed = await completeCart(api, publishableKey, cart.id)
      expect(completed.type).toBe("order")
      const orderId = (completed as { order: { id: string } }).order.id
      // Captured, so the order owes nothing until it is edited.
      const [payment] = await paymentsOf(orderId)
      expect((await call("POST", `/admin/payments/${payment.id}/capture`, {})).status).toBe(200)
      return orderId
    }

    /** An order edit adds one more item: the order now owes 19.99 EUR more (Medusa opens a collection for it). */
    async function orderOwing() {
      const orderId = await paidOrder()
      await addItemByEdit(orderId)
      return orderId
    }

    async function addItemByEdit(orderId: string) {
      expect((await call("POST", "/admin/order-edits", { order_id: orderId })).status).toBe(200)
      const added = await call("POST", `/admin/order-edits/${orderId}/items`, {
        items: [{ variant_id: variantId, quantity: 1 }],
      })
      expect(added.status).toBe(200)
      expect((await call("POST", `/admin/order-edits/${orderId}/request`)).status).toBe(200)
      expect((await call("POST", `/admin/order-edits/${orderId}/confirm`)).status).toBe(200)
    }

    async function draftOrder(customerId?: string) {
      const { status, data } = await call("POST", "/admin/draft-orders", {
        email: "giulia@example.com",
        ...(customerId ? { customer_id: customerId } : {}),
        region_id: regionId,
        sales_channel_id: salesChannelId,
        items: [{ variant_id: variantId, quantity: 2 }],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      })
      expect(status).toBe(200)
      return data.draft_order.id as string
    }

    /** An order placed through Medusa's workflow without paying: it owes 19.99 EUR and has no payment collection. */
    async function orderWithoutCollection() {
      const { result } = await createOrderWorkflow(container).run({
        input: {
          email: "giulia@example.com",
          region_id: regionId,
          sales_channel_id: salesChannelId,
          currency_code: "eur",
          items: [{ variant_id: variantId, title: "Espresso cup", quantity: 1, unit_price: 19.99 }],
          shipping_address: ADDRESS,
          billing_address: ADDRESS,
        },
      })
      return result.id as string
    }

    async function createLink(body: Record<string, unknown>): Promise<NexiPaymentLink> {
      const created = await call<NexiPaymentLinksResponse>("POST", "/admin/nexi/payment-links", body)
      expect([created.status, created.data.message]).toEqual([201, expect.stringMatching(/^Payment link for /)])
      const open = created.data.payment_links.filter((link) => link.state === "open")
      expect(open).toHaveLength(1)
      return open[0]
    }

    async function linksOf(orderId: string) {
      const answer = await call<NexiPaymentLinksResponse>("GET", `/admin/nexi/medusa-orders/${orderId}/payment-links`)
      expect(answer.status).toBe(200)
      return answer.data.payment_links
    }

    const linkState = async (orderId: string, linkId: string) =>
      (await linksOf(orderId)).find((link) => link.link_id === linkId)?.state

    async function gatewayOrder(orderId: string) {
      return simulator.gateway<{ operations: Array<Record<string, any>>; paymentLinks: Array<Record<string, any>> }>(
        `/orders/${orderId}`,
      )
    }

    async function gatewayRequests(method: string, path: string) {
      const { requests } = await simulator.control<{
        requests: Array<{ method: string; path: string; status: number }>
      }>("GET", "/requests")
      const pattern = new RegExp(`^${GATEWAY}${path.replace(/\*/g, "[^/]+")}$`)
      return requests.filter((request) => request.method === method && pattern.test(request.path))
    }

    const payLink = (linkId: string) =>
      simulator.control("POST", `/paybylink/${linkId}/pay`, { ...APPROVED, challenge: "pass" })

    const ledger = () => container.resolve<NexiLedgerService>(NEXI_LEDGER_MODULE)

    it("collects an order edit's difference by a link the shopper pays: Medusa's order shows it paid", async () => {
      const orderId = await orderOwing()
      const owed = await medusaOrder(orderId)
      expect(Number(owed.summary.pending_difference)).toBeCloseTo(19.99)
      const link = await createLink({ order_id: orderId })
      expect(link).toMatchObject({ amount: "19.99", currency: "EUR", amount_minor: "1999", state: "open" })
      expect(link.url).toMatch(/^http/)
      const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)
      expect(link.expires_at.slice(0, 10)).toBe(expires)

      await payLink(link.link_id)
      await eventually(async () => ((await paymentsOf(orderId)).length === 2 ? true : undefined), {
        timeoutMs: 60_000,
      })
      const linkPayment = (await paymentsOf(orderId)).find(
        (payment: any) => payment.data?.order_id === link.gateway_order_id,
      )
      expect(linkPayment.data).toMatchObject({ staff_channel: "payment_link", status: "authorized" })
      expect(Number(linkPayment.amount)).toBeCloseTo(19.99)
      expect(await linkState(orderId, link.link_id)).toBe("paid")
      // Staff capture it with Medusa's own route: the order owes nothing.
      expect((await call("POST", `/admin/payments/${linkPayment.id}/capture`, {})).status).toBe(200)
      expect(Number((await medusaOrder(orderId)).summary.pending_difference)).toBeCloseTo(0)
      // As the admin shows it: captured, every payment collection of the order completed.
      const shown = await call("GET", `/admin/orders/${orderId}?fields=id,payment_status,*payment_collections`)
      expect(shown.data.order.payment_status).toBe("captured")
      expect(shown.data.order.payment_collections.map((collection: { status: string }) => collection.status)).toEqual([
        "completed",
        "completed",
      ])
      const again = await call("POST", "/admin/nexi/payment-links", { order_id: orderId })
      expect(again.status).toBe(400)
    })

    it("records one payment when the link's notification is delivered three times", async () => {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId })
      await simulator.control("POST", "/faults/notifications", { copies: 3 })
      await payLink(link.link_id)
      await simulator.control("POST", "/notifications/flush")
      const { notifications } = await simulator.control<{
        notifications: Array<{ status?: number; body: { operation: { orderId: string } } }>
      }>("GET", "/notifications")
      const delivered = notifications.filter(
        (notification) => notification.body.operation.orderId === link.gateway_order_id && notification.status === 200,
      )
      expect(delivered).toHaveLength(3)
      await eventually(async () => ((await paymentsOf(orderId)).length === 2 ? true : undefined), {
        timeoutMs: 60_000,
      })
      await new Promise((resolve) => setTimeout(resolve, WEBHOOK_DELAY_MS))
      expect(await paymentsOf(orderId)).toHaveLength(2)
      const attempt = await ledger().findAttempt(link.gateway_order_id)
      expect(attempt?.state).toBe("paid")
    })

    it("records a link's payment whose notification was lost, from the job and from the staff's view of the links", async () => {
      const orderId = await orderOwing()
      const byJob = await createLink({ order_id: orderId })
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      await payLink(byJob.link_id)
      await new Promise((resolve) => setTimeout(resolve, WEBHOOK_DELAY_MS))
      expect(await paymentsOf(orderId)).toHaveLength(1)
      // The job's run once the attempt is due (its first read comes a few minutes after it opened).
      await reconcilePendingSessions(container, new Date(Date.now() + 10 * 60_000))
      expect((await paymentsOf(orderId)).map((payment: any) => payment.data?.order_id)).toContain(
        byJob.gateway_order_id,
      )

      const draftId = await draftOrder()
      const byView = await createLink({ draft_order_id: draftId })
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      await payLink(byView.link_id)
      expect(await linkState(draftId, byView.link_id)).toBe("paid")
      expect((await medusaOrder(draftId)).payment_collections.flatMap((each: any) => each.payments)).toHaveLength(1)
    })

    it("cancels the open link when the order is cancelled: it can no longer be paid", async () => {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId })
      expect((await call("POST", `/admin/orders/${orderId}/cancel`)).status).toBe(200)
      await eventually(async () => ((await linkState(orderId, link.link_id)) === "cancelled" ? true : undefined))
      expect(await gatewayRequests("POST", "/paybylink/*/cancels")).toHaveLength(1)
      await expect(payLink(link.link_id)).rejects.toThrow(/answered 409/)
    })

    it("releases a link paid just before its order was cancelled, its three notifications coming after the cancel", async () => {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId })
      // The notifications wait in a batch that never fills until the cancel is done (flushed below).
      await simulator.control("POST", "/faults/notifications", { reverseBatch: 100, copies: 3 })
      await payLink(link.link_id)
      expect((await call("POST", `/admin/orders/${orderId}/cancel`)).status).toBe(200)
      // The gateway shows the link paid, not open: its attempt is superseded all the same.
      await eventually(async () =>
        (await ledger().findAttempt(link.gateway_order_id))?.state === "superseded" ? true : undefined,
      )
      await simulator.control("POST", "/notifications/flush")
      const released = await eventually(
        async () => {
          const attempt = await ledger().findAttempt(link.gateway_order_id)
          return attempt?.state === "released" ? attempt : undefined
        },
        { timeoutMs: 60_000 },
      )
      expect(released.note).toMatch(/order cancelled meanwhile; voided automatically/)
      await new Promise((resolve) => setTimeout(resolve, WEBHOOK_DELAY_MS))
      await reconcilePendingSessions(container, new Date(Date.now() + 10 * 60_000))
      const { operations } = await gatewayOrder(link.gateway_order_id)
      const moves = operations.map((operation) => [operation.operationType, operation.operationResult])
      expect(moves.filter(([type]) => type !== "AUTHORIZATION")).toEqual([["VOID", "VOIDED"]])
      // Nothing of it on the cancelled order: no payment recorded, no collection turned back to authorized.
      const order = await medusaOrder(orderId)
      expect(order.status).toBe("canceled")
      expect(order.payment_collections.map((collection: { status: string }) => collection.status)).toEqual([
        "canceled",
        "canceled",
      ])
      expect(
        (await paymentsOf(orderId)).filter((payment: any) => payment.data?.order_id === link.gateway_order_id),
      ).toEqual([])
      await simulator.control("DELETE", "/faults/notifications")
    })

    /**
     * An order with an open link, cancelled while the gateway is down for the link's cancel: the
     * link's attempt is superseded, its cancel's outcome unknown, and the link stays payable there.
     */
    async function orderCancelledWhileGatewayDown() {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId })
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: `${GATEWAY}/paybylink/*/cancels` },
        action: { type: "status", status: 503 },
      })
      expect((await call("POST", `/admin/orders/${orderId}/cancel`)).status).toBe(200)
      await eventually(async () =>
        (await ledger().findAttempt(link.gateway_order_id))?.state === "superseded" ? true : undefined,
      )
      // The attempt is superseded before the gateway is asked: wait until the cancel was tried.
      await eventually(async () => {
        const writes = await ledger().writesOf(link.gateway_order_id)
        const cancel = writes.find((write) => write.kind === "link_cancellation")
        return cancel && cancel.outcome !== "requested" ? true : undefined
      })
      return { orderId, link }
    }

    it("releases a payment made on the link after the order was cancelled, when the gateway missed the cancel", async () => {
      const { orderId, link } = await orderCancelledWhileGatewayDown()
      await simulator.control("DELETE", "/faults")
      await payLink(link.link_id)
      const released = await eventually(
        async () => {
          const attempt = await ledger().findAttempt(link.gateway_order_id)
          return attempt?.state === "released" ? attempt : undefined
        },
        { timeoutMs: 60_000 },
      )
      expect(released.note).toMatch(/voided automatically/)
      const { operations } = await gatewayOrder(link.gateway_order_id)
      expect(operations.map((operation) => [operation.operationType, operation.operationResult])).toContainEqual([
        "VOID",
        "VOIDED",
      ])
      const recorded = (await paymentsOf(orderId)).filter(
        (payment: any) => payment.data?.order_id === link.gateway_order_id,
      )
      expect(recorded).toEqual([])

      // The job sends the cancel whose outcome was unknown once more; the gateway refuses it (the
      // link was paid), and a refused cancel is never sent again.
      const later = new Date(Date.now() + 3 * 60_000)
      await reconcilePendingSessions(container, later)
      const cancels = (await gatewayRequests("POST", "/paybylink/*/cancels")).length
      const [cancel] = (await ledger().writesOf(link.gateway_order_id)).filter(
        (write) => write.kind === "link_cancellation",
      )
      expect(cancel.outcome).toBe("refused")
      await reconcilePendingSessions(container, later)
      expect(await gatewayRequests("POST", "/paybylink/*/cancels")).toHaveLength(cancels)
    })

    it("cancels the link from the job when the gateway was down for the order's cancel: it can no longer be paid", async () => {
      const { orderId, link } = await orderCancelledWhileGatewayDown()
      const cancelWrites = async () =>
        (await ledger().writesOf(link.gateway_order_id)).filter((write) => write.kind === "link_cancellation")
      await eventually(async () => ((await cancelWrites())[0]?.outcome === "unknown" ? true : undefined))
      await simulator.control("DELETE", "/faults")

      const later = new Date(Date.now() + 3 * 60_000)
      expect((await reconcilePendingSessions(container, later)).linkCancels).toEqual({ cancelled: 1, pending: 0 })
      expect(await cancelWrites()).toMatchObject([{ outcome: "executed", gateway_operation_id: link.link_id }])
      expect(await linkState(orderId, link.link_id)).toBe("cancelled")
      await expect(payLink(link.link_id)).rejects.toThrow(/answered 409/)
      // Nothing is left for the next run.
      expect((await reconcilePendingSessions(container, later)).linkCancels).toBeUndefined()
    })

    it("records nothing for an expired link, which the gateway no longer takes", async () => {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId, expiry_days: 1 })
      await simulator.control("POST", "/clock", { offsetMs: 3 * 86_400_000 })
      await expect(payLink(link.link_id)).rejects.toThrow(/answered 409.*expired/)
      expect(await paymentsOf(orderId)).toHaveLength(1)
      expect((await gatewayOrder(link.gateway_order_id)).operations).toEqual([])
    })

    it("makes a new link when staff ask again after the link expired, never handing out the expired one", async () => {
      const orderId = await orderOwing()
      const expired = await createLink({ order_id: orderId })
      await simulator.control("POST", `/paybylink/${expired.link_id}/expire`)
      expect(await linkState(orderId, expired.link_id)).toBe("expired")

      const again = await call<NexiPaymentLinksResponse>("POST", "/admin/nexi/payment-links", { order_id: orderId })
      expect(again.status).toBe(201)
      const open = again.data.payment_links.filter((link) => link.state === "open")
      expect(open).toEqual([expect.objectContaining({ amount: "19.99" })])
      expect(open[0].link_id).not.toBe(expired.link_id)
      expect(open[0].gateway_order_id).not.toBe(expired.gateway_order_id)
      // The expired link's attempt records nothing from now on; the new link is paid and recorded.
      expect((await ledger().findAttempt(expired.gateway_order_id))?.state).toBe("superseded")
      await payLink(open[0].link_id)
      await eventually(async () => ((await paymentsOf(orderId)).length === 2 ? true : undefined), {
        timeoutMs: 60_000,
      })
    })

    it("pays a draft order by link and converts it into an order", async () => {
      const draftId = await draftOrder()
      const link = await createLink({ draft_order_id: draftId, expiry_days: 30 })
      expect(link).toMatchObject({ amount: "39.98", currency: "EUR" })
      await payLink(link.link_id)
      const order = await eventually(
        async () => {
          const row = await medusaOrder(draftId)
          return row.is_draft_order === false ? row : undefined
        },
        { timeoutMs: 60_000 },
      )
      expect(order.payment_collections.flatMap((collection: any) => collection.payments)).toHaveLength(1)
    })

    it("settles a lost answer on the link's creation by the gateway's order: one link, also when staff press again", async () => {
      const orderId = await orderOwing()
      await simulator.control("POST", "/faults", {
        match: { method: "POST", path: `${GATEWAY}/orders/paybylink` },
        times: 1,
        phase: "after",
        action: { type: "reset" },
      })
      const link = await createLink({ order_id: orderId })
      const again = await createLink({ order_id: orderId })
      expect(again.link_id).toBe(link.link_id)
      expect((await gatewayOrder(link.gateway_order_id)).paymentLinks.map((each) => each.linkId)).toEqual([
        link.link_id,
      ])
      expect((await gatewayRequests("POST", "/orders/paybylink")).length).toBe(1)
      const writes = await ledger().writesOf(link.gateway_order_id)
      expect(writes.filter((write) => write.kind === "link_creation")).toMatchObject([{ outcome: "executed" }])
    })

    it("cancels the open link when an order edit changes what the order owes: the old amount can no longer be paid", async () => {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId })
      await addItemByEdit(orderId)
      await eventually(async () => ((await linkState(orderId, link.link_id)) === "cancelled" ? true : undefined))
      await expect(payLink(link.link_id)).rejects.toThrow(/answered 409/)
      expect(Number((await medusaOrder(orderId)).summary.pending_difference)).toBeCloseTo(39.98)
      expect(await createLink({ order_id: orderId })).toMatchObject({ amount: "39.98", state: "open" })
    })

    it("answers the open link again when staff press twice, replaces it once the order owes another amount, and cancels", async () => {
      const orderId = await orderOwing()
      const first = await createLink({ order_id: orderId, expiry_days: 3 })
      expect((await createLink({ order_id: orderId, expiry_days: 3 })).link_id).toBe(first.link_id)
      await addItemByEdit(orderId)
      const second = await createLink({ order_id: orderId, expiry_days: 10 })
      expect(second).toMatchObject({ amount: "39.98", state: "open" })
      expect(second.link_id).not.toBe(first.link_id)
      expect(await linkState(orderId, first.link_id)).toBe("cancelled")
      await expect(payLink(first.link_id)).rejects.toThrow(/answered 409/)
      const cancelled = await call<NexiPaymentLinksResponse>(
        "POST",
        `/admin/nexi/medusa-orders/${orderId}/payment-links/${second.link_id}/cancel`,
      )
      expect(cancelled.status).toBe(200)
      expect(cancelled.data.payment_links.map((link) => link.state)).toEqual(["cancelled", "cancelled"])
      const twice = await call("POST", `/admin/nexi/medusa-orders/${orderId}/payment-links/${second.link_id}/cancel`)
      expect([twice.status, twice.data.message]).toEqual([
        400,
        `Payment link ${second.link_id} is cancelled: only an open link can be cancelled.`,
      ])
      expect(await gatewayRequests("POST", "/paybylink/*/cancels")).toHaveLength(2)
    })

    it("cancels the open link at the gateway when the order is paid another way (MOTO), its attempt superseded", async () => {
      const orderId = await orderOwing()
      const link = await createLink({ order_id: orderId })
      const moto = await call("POST", "/admin/nexi/moto", { order_id: orderId, card: APPROVED })
      expect(moto.status).toBe(200)
      expect(await linkState(orderId, link.link_id)).toBe("cancelled")
      await expect(payLink(link.link_id)).rejects.toThrow(/answered 409/)
      expect((await ledger().findAttempt(link.gateway_order_id))?.state).toBe("superseded")
    })

    it("collects a smaller amount staff type, never more than the order owes, by a Google Pay link", async () => {
      const orderId = await orderOwing()
      const tooMuch = await call("POST", "/admin/nexi/payment-links", { order_id: orderId, amount: "25.00" })
      expect([tooMuch.status, tooMuch.data.message]).toEqual([
        400,
        "amount: 25.00 EUR is more than the order owes (19.99 EUR)",
      ])
      const link = await createLink({ order_id: orderId, amount: "5.00", wallet: "GOOGLEPAY" })
      expect(link).toMatchObject({ amount: "5.00", amount_minor: "500" })
      // The link's page shows only the wallet's button, which the customer presses.
      const page = await (await fetch(link.url)).text()
      expect([page.includes('data-wallet="GOOGLEPAY"'), page.includes('id="pan"')]).toEqual([true, false])
      await payLink(link.link_id)
      const payment = await eventually(
        async () =>
          (await paymentsOf(orderId)).find((each: any) => each.data?.order_id === link.gateway_order_id) ?? undefined,
        { timeoutMs: 60_000 },
      )
      expect(Number(payment.amount)).toBe(5)
    })

    it("asks for all the order owes again once a link for a smaller amount was cancelled unpaid", async () => {
      const orderId = await orderOwing()
      const part = await createLink({ order_id: orderId, amount: "5.00" })
      const cancelled = await call("POST", `/admin/nexi/medusa-orders/${orderId}/payment-links/${part.link_id}/cancel`)
      expect(cancelled.status).toBe(200)
      expect(await createLink({ order_id: orderId })).toMatchObject({ amount: "19.99", amount_minor: "1999" })
      const collection = (await medusaOrder(orderId)).payment_collections.find(
        (each: { status: string }) => each.status === "not_paid",
      )
      expect(Number(collection.amount)).toBe(19.99)
    })

    it("refuses a bad amount before Medusa's workflow creates or resizes a payment collection: the order's stay as they were", async () => {
      const collectionsOf = async (id: string) =>
        (await medusaOrder(id)).payment_collections.map(({ id, status, amount }: Record<string, unknown>) => ({
          id,
          status,
          amount,
        }))
      // Each on an order of its own, which has no payment collection yet: a refusal must leave it without one.
      const cases: Array<[() => Promise<Record<string, string>>, string]> = [
        [
          async () => ({ draft_order_id: await draftOrder(), amount: "5.00" }),
          "amount: a draft order is paid in full; leave amount out",
        ],
        [
          async () => ({ order_id: await orderWithoutCollection(), amount: "25.00" }),
          "amount: 25.00 EUR is more than the order owes (19.99 EUR)",
        ],
        [
          async () => ({ order_id: await orderWithoutCollection(), amount: "1.234" }),
          "amount: EUR has 2 decimals; 1.234 has more",
        ],
        [async () => ({ order_id: await orderWithoutCollection(), amount: "0.00" }), "amount: must be more than 0"],
      ]
      const answered: unknown[] = []
      for (const [bodyOf] of cases) {
        const body = await bodyOf()
        const target = body.draft_order_id ?? body.order_id
        expect(await collectionsOf(target)).toEqual([])
        const refused = await call("POST", "/admin/nexi/payment-links", body)
        answered.push({
          status: refused.status,
          message: refused.data.message,
          collections: await collectionsOf(target),
        })
      }
      expect(answered).toEqual(cases.map(([, message]) => ({ status: 400, message, collections: [] })))
      expect(await gatewayRequests("POST", "/orders/paybylink")).toEqual([])

      // A good amount is taken then: the collection is created for what staff typed.
      const orderId = await orderWithoutCollection()
      const link = await createLink({ order_id: orderId, amount: "5.00" })
      expect(link).toMatchObject({ amount: "5.00", amount_minor: "500" })
      expect(await collectionsOf(orderId)).toEqual([expect.objectContaining({ status: "not_paid", amount: 5 })])
    })

    it("answers 400 naming the field for bad input, and creates nothing", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ order_id: "order_01ABC", expiry_days: 0 }, "expiry_days: must be at least 1 day"],
        [{ order_id: "order_01ABC", expiry_days: 91 }, "expiry_days: must be at most 90 days"],
        [{ order_id: "order_01ABC", expiry_days: 2.5 }, "expiry_days: must be a whole number of days"],
        [{ order_id: "order_01ABC", expiry_days: "7" }, "expiry_days: must be a whole number of days"],
        [{}, "order_id: give exactly one of draft_order_id and order_id"],
        [{ order_id: "nope" }, "order_id: must be an order id (order_...)"],
        [
          { order_id: "order_01ABC", amount: 5 },
          'amount: must be a decimal number in the order\'s currency, as a string like "12.50"',
        ],
        [{ order_id: "order_01ABC", link: "x" }, "link: is not accepted here"],
        [
          { order_id: "order_01ABC", wallet: "PAYPAL" },
          'wallet: must be "GOOGLEPAY" or "APPLEPAY", or left out to pay by card',
        ],
      ]
      for (const [body, message] of cases) {
        const answer = await call("POST", "/admin/nexi/payment-links", body)
        expect([answer.status, answer.data.message]).toEqual([400, message])
      }
      expect(await gatewayRequests("POST", "/orders/paybylink")).toEqual([])
    })

    it("returns the customer to the link's page, whose store route says what became of the link, to a guest, with nothing secret", async () => {
      const orderId = await orderOwing()
      const guest = { headers: { "x-publishable-api-key": publishableKey } }
      const outcome = (link: NexiPaymentLink, order = orderId) =>
        call("GET", `/store/nexi/payment-links/${link.session_id}?order_id=${order}`, undefined, guest)
      // The route reads the gateway at most once every 3 s per link: a new state shows after that.
      const laterOutcome = async (link: NexiPaymentLink) => {
        await new Promise((resolve) => setTimeout(resolve, 3_100))
        return (await outcome(link)).data.payment_link
      }
      const first = await createLink({ order_id: orderId })
      const unpaid = await outcome(first)
      expect(unpaid).toMatchObject({
        status: 200,
        data: {
          payment_link: { status: "pending", amount: "19.99", currency_code: "eur", expires_at: first.expires_at },
        },
      })
      for (const secret of [first.url, first.link_id, first.gateway_order_id])
        expect(JSON.stringify(unpaid.data)).not.toContain(secret)

      const declined = await simulator.control<{ redirectUrl: string }>("POST", `/paybylink/${first.link_id}/pay`, {
        outcome: "decline",
      })
      expect(declined.redirectUrl).toMatch(
        new RegExp(`^https?://[^/]+/nexi/payment-link\\?order_id=${orderId}&session_id=${first.session_id}$`),
      )
      expect(await laterOutcome(first)).toMatchObject({
        status: "declined",
        reason: "The card issuer declined the payment.",
      })
      const cancel = `/admin/nexi/medusa-orders/${orderId}/payment-links/${first.link_id}/cancel`
      expect((await call("POST", cancel)).status).toBe(200)
      expect(await laterOutcome(first)).toMatchObject({
        status: "cancelled",
        reason: "The store cancelled this payment link.",
      })

      const second = await createLink({ order_id: orderId })
      await payLink(second.link_id)
      expect((await outcome(second)).data.payment_link).toMatchObject({ status: "paid", amount: "19.99" })
      await eventually(async () => ((await paymentsOf(orderId)).length === 2 ? true : undefined), {
        timeoutMs: 60_000,
      })

      expect((await outcome(second, "order_01NOPE")).status).toBe(404)
      const bad = await call("GET", "/store/nexi/payment-links/pay_1", undefined, guest)
      expect([bad.status, bad.data.message]).toEqual([400, "id: must be a payment session id (payses_...)"])
      const missing = await call("GET", `/store/nexi/payment-links/${second.session_id}`, undefined, guest)
      expect([missing.status, missing.data.message]).toEqual([400, "order_id: must be an order id (order_...)"])
    })

    it("answers the open link on the store route to the order's customer only", async () => {
      const register = async (name: string) => {
        const email = `${name}-${randomUUID().slice(0, 8)}@example.com`
        const password = `pw-${randomUUID()}`
        const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
        const { data: created } = await api.post(
          "/store/customers",
          { email, first_name: name, last_name: "Rossi" },
          { headers: { authorization: `Bearer ${registered.token}`, "x-publishable-api-key": publishableKey } },
        )
        const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
        return {
          id: created.customer.id as string,
          auth: { headers: { authorization: `Bearer ${login.token}`, "x-publishable-api-key": publishableKey } },
        }
      }
      const owner = await register("giulia")
      const stranger = await register("marco")
      const draftId = await draftOrder(owner.id)
      const route = `/store/nexi/orders/${draftId}/payment-link`
      expect((await call("GET", route, undefined, owner.auth)).data).toEqual({ payment_link: null })
      const link = await createLink({ draft_order_id: draftId })
      const mine = await call("GET", route, undefined, owner.auth)
      expect(mine).toMatchObject({
        status: 200,
        data: { payment_link: { url: link.url, amount: "39.98", currency_code: "eur", expires_at: link.expires_at } },
      })
      expect(JSON.stringify(mine.data)).not.toMatch(/gateway_order_id|session_id/)
      expect((await call("GET", route, undefined, stranger.auth)).status).toBe(404)
      expect(
        (await call("GET", route, undefined, { headers: { "x-publishable-api-key": publishableKey } })).status,
      ).toBe(401)
      expect((await call("GET", "/store/nexi/orders/order_01NOPE/payment-link", undefined, owner.auth)).status).toBe(
        404,
      )
    })
  },
})

/**
 * The admin routes under /admin/nexi end to end: a real Medusa store on PostgreSQL, a member
 * of staff logged in through Medusa's own login route, the gateway simulator over HTTP.
 * Everything the suite writes to stdout/stderr and every answer it receives is kept and, at
 * the end, searched for card numbers, CVVs and the API key.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { type MotoTarget, motoCandidateOf, motoCandidatesRequest } from "../../src/admin/lib/nexi-admin-api"
import type { NexiLedgerService } from "../../src/modules/nexi-ledger/service"
import { NEXI_LEDGER_MODULE } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import type {
  NexiCardPaymentView,
  NexiCardVerificationResponse,
  NexiMobilePaymentView,
  NexiOrderPaymentsResponse,
  NexiPaymentActionResponse,
  NexiReleasedPaymentsResponse,
  NexiStaffChargeResponse,
} from "../../src/staff/contract"
import { adminHeaders } from "../support/admin-auth"
import { captureOutput } from "../support/output-capture"
import { SANDBOX_API_KEY, simulatorForSuite } from "../support/simulator"
import {
  ADDRESS,
  completeCart,
  createCart,
  createProduct,
  createRegion,
  eventually,
  NEXI_CARD_PROVIDER,
  seedStoreBasics,
  startPaymentSession,
  storeHeaders,
} from "../support/store"

jest.setTimeout(300_000)

// From the first line on, so Medusa's boot and every request's logs are searched too.
const output = captureOutput()

const CARDS = {
  challenge: { pan: "4349940199004549", expiryDate: "1230", cvv: "396" },
  approved: { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
  approvedMc: { pan: "5593497948332903", expiryDate: "1230", cvv: "399" },
  declined: { pan: "5515931855858729", expiryDate: "1230", cvv: "123" },
}
const APM_CONSUMER_SECRET = "sim-secret"
const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const WAITING_CONSUMER = "+4712345678"
const CVV_MEMBER = /\\*"cvv\\*"\s*:\s*\\*"?\d/i

/** Every answer body the suite received, as text, for the final search. */
const answers: string[] = []

const simulator = simulatorForSuite()

type Answer<T> = { status: number; data: T }

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let salesChannelId: string
    let regionId: string
    let variantId: string
    let auth: { headers: Record<string, string> }

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      await simulator.control("DELETE", "/faults")
      const basics = await seedStoreBasics(container)
      publishableKey = basics.publishableKey
      salesChannelId = basics.salesChannelId
      regionId = (await createRegion(container, { name: "Italy", currency_code: "eur", countries: ["it"] })).id
      variantId = (await createProduct(container, salesChannelId, [{ currency_code: "eur", amount: 19.99 }])).variantId
      auth = await adminHeaders(container, api)
    })

    async function call<T = any>(
      method: "GET" | "POST",
      url: string,
      body?: unknown,
      config: Record<string, unknown> = auth,
    ): Promise<Answer<T>> {
      const options = { ...config, validateStatus: () => true }
      const answer = method === "GET" ? await api.get(url, options) : await api.post(url, body, options)
      answers.push(typeof answer.data === "string" ? answer.data : JSON.stringify(answer.data))
      return answer as Answer<T>
    }
    const get = <T = any>(url: string) => call<T>("GET", url)
    const post = <T = any>(url: string, body?: unknown) => call<T>("POST", url, body ?? {})

    async function gatewayOrder(orderId: string) {
      return simulator.gateway<{ orderStatus: Record<string, any>; operations: Array<Record<string, any>> }>(
        `/orders/${orderId}`,
      )
    }

    async function gatewayRequests(method: string, path: string) {
      const { requests } = await simulator.control<{
        requests: Array<{ method: string; path: string; status: number; idempotencyKey?: string }>
      }>("GET", "/requests")
      const pattern = new RegExp(`^${GATEWAY}${path.replace(/\*/g, "[^/]+")}$`)
      return requests.filter((request) => request.method === method && pattern.test(request.path))
    }

    async function gatewayCallCount() {
      const { requests } = await simulator.control<{ requests: Array<{ path: string }> }>("GET", "/requests")
      return requests.filter((request) => request.path.startsWith(GATEWAY)).length
    }

    async function medusaOrder(orderId: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "id",
          "status",
          "is_draft_order",
          "payment_collections.id",
          "payment_collections.status",
          "payment_collections.payments.*",
          "payment_collections.payments.captures.*",
          "payment_collections.payments.refunds.*",
        ],
        filters: { id: orderId },
      })
      return data[0] as any
    }

    async function onlyPayment(orderId: string) {
      const payments = (await medusaOrder(orderId)).payment_collections.flatMap(
        (collection: any) => collection.payments,
      )
      expect(payments).toHaveLength(1)
      return payments[0]
    }

    /** A shopper pays 2 x 19.99 EUR on the hosted page (3-D Secure challenge) and the cart completes. */
    async function paidCardOrder() {
      const cart = await createCart(api, publishableKey, { regionId, variantId, quantity: 2 })
      const { session } = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER)
      await simulator.control("POST", `/hpp/${session.data.order_id}/pay`, {
        ...CARDS.challenge,
        awaitNotification: false,
      })
      const completed = await completeCart(api, publishableKey, cart.id)
      expect(completed.type).toBe("order")
      const orderId = (completed as { order: { id: string } }).order.id
      const payment = await onlyPayment(orderId)
      return {
        orderId,
        cartId: cart.id as string,
        gatewayOrderId: session.data.order_id as string,
        paymentId: payment.id as string,
      }
    }

    async function captureOperationOf(gatewayOrderId: string) {
      const { operations } = await gatewayOrder(gatewayOrderId)
      return operations.filter((operation) => operation.operationType === "CAPTURE").at(-1)!.operationId as string
    }

    async function draftOrder() {
      const { status, data } = await post("/admin/draft-orders", {
        email: "giulia@example.com",
        region_id: regionId,
        sales_channel_id: salesChannelId,
        items: [{ variant_id: variantId, quantity: 2 }],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      })
      expect(status).toBe(200)
      return data.draft_order.id as string
    }

    describe("authentication", () => {
      it("answers 401 to every route without a member of staff's token, and calls no gateway", async () => {
        const routes: Array<["GET" | "POST", string]> = [
          ["GET", "/admin/nexi/orders/ORDER1"],
          ["GET", "/admin/nexi/operations/123456789012345"],
          ["GET", "/admin/nexi/operations?maxRecords=5"],
          ["GET", "/admin/nexi/payment-methods"],
          ["GET", "/admin/nexi/medusa-orders/order_01ABC/payments"],
          ["POST", "/admin/nexi/payments/pay_01ABC/cancel-capture"],
          ["POST", "/admin/nexi/payments/pay_01ABC/sync"],
          ["POST", "/admin/nexi/moto"],
          ["POST", "/admin/nexi/card-verifications"],
        ]
        for (const [method, url] of routes) {
          const answer = await call(method, url, { card: CARDS.approved }, {})
          expect([url, answer.status]).toEqual([url, 401])
        }
        const withForgedToken = await call("GET", "/admin/nexi/payment-methods", undefined, {
          headers: { authorization: "Bearer not-a-token" },
        })
        expect(withForgedToken.status).toBe(401)
        expect(await gatewayCallCount()).toBe(0)
      })
    })

    describe("input validation", () => {
      it("answers 400 naming the field for every bad query, parameter and body, and calls no gateway", async () => {
        const cases: Array<["GET" | "POST", string, unknown, RegExp]> = [
          ["GET", "/admin/nexi/operations?maxRecords=0", undefined, /^maxRecords: must be a whole number above 0$/],
          ["GET", "/admin/nexi/operations?maxRecords=ten", undefined, /^maxRecords: must be a whole number above 0$/],
          [
            "GET",
            "/admin/nexi/operations?channel=WEB",
            undefined,
            /^channel: must be one of ECOMMERCE, POS, BACKOFFICE$/,
          ],
          [
            "GET",
            "/admin/nexi/operations?operationType=SALE",
            undefined,
            /^operationType: must be one of AUTHORIZATION, CAPTURE, VOID, REFUND, CANCEL$/,
          ],
          ["GET", "/admin/nexi/operations?fromTime=yesterday", undefined, /^fromTime: must be an ISO 8601 date-time/],
          [
            "GET",
            "/admin/nexi/operations?fromTime=2026-02-01T00:00:00Z&toTime=2026-01-01T00:00:00Z",
            undefined,
            /^toTime: must not be before fromTime$/,
          ],
          ["GET", "/admin/nexi/operations?limit=5", undefined, /^limit: is not accepted here$/],
          ["GET", "/admin/nexi/orders/NOT-AN-ORDER-ID", undefined, /^orderId: must be 1 to 18 letters and digits$/],
          ["GET", "/admin/nexi/operations/12;34", undefined, /^operationId: must be 1 to 64 letters, digits/],
          [
            "GET",
            "/admin/nexi/medusa-orders/cart_123/payments",
            undefined,
            /^id: must be an order id \(order_\.\.\.\)$/,
          ],
          ["POST", "/admin/nexi/payments/order_1/sync", {}, /^id: must be a payment id \(pay_\.\.\.\)$/],
          ["POST", "/admin/nexi/payments/pay_01ABC/sync", { force: true }, /^force: is not accepted here$/],
          [
            "POST",
            "/admin/nexi/payments/pay_01ABC/cancel-capture",
            {},
            /^operation_id: is required; reason: is required$/,
          ],
          [
            "POST",
            "/admin/nexi/payments/pay_01ABC/cancel-capture",
            { operation_id: "123", reason: "x".repeat(256) },
            /^reason: must be at most 255 characters$/,
          ],
          [
            "POST",
            "/admin/nexi/moto",
            { order_id: "order_01ABC", card: { ...CARDS.approved, pan: "4999 3402 6197 7289" } },
            /^card\.pan: must be 13 to 19 digits, without spaces$/,
          ],
          [
            "POST",
            "/admin/nexi/moto",
            { order_id: "order_01ABC", card: { ...CARDS.approved, pan: "4999340261977288", expiryDate: "0120" } },
            /^card\.pan: is not a valid card number \(its check digit is wrong\); card\.expiryDate: the card has expired$/,
          ],
          [
            "POST",
            "/admin/nexi/moto",
            { card: CARDS.approved },
            /^order_id: give exactly one of draft_order_id and order_id$/,
          ],
          [
            "POST",
            "/admin/nexi/moto",
            { order_id: "order_01ABC", draft_order_id: "order_01DEF", card: CARDS.approved },
            /^order_id: give exactly one of draft_order_id and order_id$/,
          ],
          [
            "POST",
            "/admin/nexi/moto",
            { order_id: "order_01ABC", card: CARDS.approved, amount: 1 },
            /^amount: is not accepted here$/,
          ],
          ["POST", "/admin/nexi/moto", { order_id: "order_01ABC" }, /^card: is required$/],
          [
            "POST",
            "/admin/nexi/card-verifications",
            { card: { ...CARDS.approved, cvv: "12" } },
            /^card\.cvv: must be 3 or 4 digits$/,
          ],
          [
            "POST",
            "/admin/nexi/card-verifications",
            { card: CARDS.approved, customer_email: "not-an-email" },
            /^customer_email: must be an email address$/,
          ],
        ]
        for (const [method, url, body, message] of cases) {
          const answer = await call(method, url, body)
          expect({ url, status: answer.status, type: answer.data.type }).toEqual({
            url,
            status: 400,
            type: "invalid_data",
          })
          expect(answer.data.message).toMatch(message)
        }
        // A body that is not JSON at all is refused by Medusa's parser, without echoing the card.
        const malformed = await call(
          "POST",
          "/admin/nexi/moto",
          `{"order_id":"order_01ABC","card":{"pan":"${CARDS.approved.pan}",`,
          {
            headers: { ...auth.headers, "content-type": "application/json" },
            // Sent as typed: axios would otherwise quote the string into valid JSON.
            transformRequest: [(body: unknown) => body],
          },
        )
        expect(malformed.status).toBe(400)
        expect(await gatewayCallCount()).toBe(0)
      })

      it("answers 404 for an order or payment Medusa does not have, and for a gateway order the gateway does not have", async () => {
        const order = await get("/admin/nexi/medusa-orders/order_01NOPE/payments")
        expect([order.status, order.data.message]).toEqual([404, "id: no order order_01NOPE"])
        const payment = await post("/admin/nexi/payments/pay_01NOPE/sync")
        expect([payment.status, payment.data.message]).toEqual([404, "id: no payment pay_01NOPE"])
        const moto = await post("/admin/nexi/moto", { draft_order_id: "order_01NOPE", card: CARDS.approved })
        expect([moto.status, moto.data.message]).toEqual([404, "draft_order_id: no order order_01NOPE"])
        const gatewayOrder = await get("/admin/nexi/orders/UNKNOWN123")
        expect(gatewayOrder.status).toBe(404)
        expect(gatewayOrder.data.message).toMatch(
          /^Could not read gateway order UNKNOWN123: The Nexi gateway does not know this payment/,
        )
      })
    })

    describe("payments view and gateway lookups", () => {
      it("shows a card payment's amounts, card, 3-D Secure and timeline, and proxies the gateway's records", async () => {
        const { orderId, gatewayOrderId, paymentId } = await paidCardOrder()
        // Authorized: the whole authorization can be captured, nothing refunded or cancelled.
        const before = (await get<NexiOrderPaymentsResponse>(`/admin/nexi/medusa-orders/${orderId}/payments`)).data
          .payments[0] as NexiCardPaymentView
        expect(before).toMatchObject({ capturable: { amount: "39.98", currency: "EUR" }, refundable: null })
        expect(before.operations.some((operation) => operation.cancellable)).toBe(false)
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId, amount: 25.5 } })

        const { status, data } = await get<NexiOrderPaymentsResponse>(`/admin/nexi/medusa-orders/${orderId}/payments`)
        expect(status).toBe(200)
        expect(data.order_id).toBe(orderId)
        expect(data.payments).toHaveLength(1)
        const view = data.payments[0] as NexiCardPaymentView
        expect(view).toMatchObject({
          kind: "card",
          payment_id: paymentId,
          provider_id: NEXI_CARD_PROVIDER,
          gateway_order_id: gatewayOrderId,
          circuit: "VISA",
          masked_card: "***4549",
          three_ds: "CHALLENGE",
          authorized: { amount: "39.98", currency: "EUR" },
          captured: { amount: "25.50", currency: "EUR" },
          refunded: { amount: "0.00", currency: "EUR" },
          last_operation_type: "CAPTURE",
          // One capture per authorization: no second one; what it took can be refunded.
          capturable: null,
          refundable: { amount: "25.50", currency: "EUR" },
        })
        expect(
          view.operations.map((operation) => [
            operation.type,
            operation.result,
            operation.amount?.amount,
            operation.cancellable,
          ]),
        ).toEqual([
          ["AUTHORIZATION", "THREEDS_VALIDATED", "39.98", false],
          ["AUTHORIZATION", "AUTHORIZED", "39.98", false],
          ["CAPTURE", "EXECUTED", "25.50", true],
        ])

        const proxied = await get(`/admin/nexi/orders/${gatewayOrderId}`)
        expect(proxied.status).toBe(200)
        expect(proxied.data).toEqual(await gatewayOrder(gatewayOrderId))

        const captureId = await captureOperationOf(gatewayOrderId)
        const operation = await get(`/admin/nexi/operations/${captureId}`)
        expect(operation.data).toMatchObject({
          operationId: captureId,
          operationType: "CAPTURE",
          operationAmount: "2550",
          orderId: gatewayOrderId,
        })

        const listed = await get(
          "/admin/nexi/operations?operationType=CAPTURE&channel=BACKOFFICE&maxRecords=5&fromTime=2000-01-01T00:00:00Z",
        )
        expect(listed.status).toBe(200)
        expect(
          listed.data.operations.map((listedOperation: { operationId: string }) => listedOperation.operationId),
        ).toEqual([captureId])

        const methods = await get("/admin/nexi/payment-methods")
        expect(methods.status).toBe(200)
        expect(methods.data.payment_methods).toContainEqual({
          circuit: "VISA",
          method_type: "CARD",
          image_link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/assets\/logos\/visa\.svg$/),
          recurring_supported: expect.any(Boolean),
          one_click_supported: expect.any(Boolean),
        })
      })

      it("shows a mobile payment's scheme, transaction, state and transitions", async () => {
        const providerId = "pp_nexi-apm-psp-b_nexi"
        const cart = await createCart(api, publishableKey, { regionId, variantId, quantity: 2 })
        const { session } = await startPaymentSession(api, publishableKey, cart.id, providerId, {
          consumer_id: WAITING_CONSUMER,
        })
        await simulator.control("POST", `/apm/${session.data.transaction_id}/approve`)
        const orderId = await eventually(async () => {
          const { data } = await api.get(
            `/store/nexi/payment-sessions/${session.id}?cart_id=${cart.id}`,
            storeHeaders(publishableKey),
          )
          return data.order_id as string | undefined
        })

        const { data } = await get<NexiOrderPaymentsResponse>(`/admin/nexi/medusa-orders/${orderId}/payments`)
        const view = data.payments[0] as NexiMobilePaymentView
        expect(view).toMatchObject({
          kind: "mobile",
          provider_id: providerId,
          scheme: "PSP_B",
          transaction_id: String(session.data.transaction_id),
          amount: { amount: "39.98", currency: "EUR" },
        })
        const live = await simulator.apmTransaction(session.data.transaction_id)
        expect(view.state).toBe(live.state ?? live.response?.request?.transaction?.state)
        expect(view.transitions.length).toBeGreaterThan(0)
        expect(view.transitions.at(-1)?.to).toBe(view.state)

        const synced = await post<NexiPaymentActionResponse>(`/admin/nexi/payments/${view.payment_id}/sync`)
        expect(synced.status).toBe(200)
        expect(synced.data.message).toMatch(
          `Read transaction ${session.data.transaction_id} from the mobile payment service`,
        )
      })
    })

    describe("cancel capture", () => {
      it("cancels a partial capture at the gateway and records it in Medusa, so both agree, and only once", async () => {
        const { orderId, gatewayOrderId, paymentId } = await paidCardOrder()
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId, amount: 25.5 } })
        const captureId = await captureOperationOf(gatewayOrderId)

        const cancelled = await post<NexiPaymentActionResponse>(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
          operation_id: captureId,
          reason: "Wrong amount captured",
        })
        expect(cancelled.status).toBe(200)
        const atGateway = await gatewayOrder(gatewayOrderId)
        const cancel = atGateway.operations.find((operation) => operation.operationType === "CANCEL")!
        expect(cancel).toMatchObject({
          operationResult: "EXECUTED",
          cancelledOperationId: captureId,
          operationAmount: "2550",
        })
        expect(atGateway.orderStatus.capturedAmount).toBe("0")
        expect(cancelled.data.message).toBe(
          `Cancelled capture ${captureId} (25.50 EUR) at the gateway (operation ${cancel.operationId}); recorded a refund of 25.50 EUR in Medusa.`,
        )

        const payment = await onlyPayment(orderId)
        expect(payment.captures.map((capture: { amount: number }) => capture.amount)).toEqual([25.5])
        expect(payment.refunds.map((refund: { amount: number }) => refund.amount)).toEqual([25.5])
        expect(payment.refunds[0].metadata).toMatchObject({
          nexi_operation_id: cancel.operationId,
          nexi_cancelled_capture_id: captureId,
        })
        // The refund was recorded, not sent: the gateway has no REFUND.
        expect(atGateway.operations.some((operation) => operation.operationType === "REFUND")).toBe(false)

        const view = cancelled.data.payment as NexiCardPaymentView
        expect(view.captured).toEqual({ amount: "0.00", currency: "EUR" })
        expect(view.operations.find((operation) => operation.operation_id === captureId)?.cancellable).toBe(false)
        expect(view.operations.at(-1)).toMatchObject({
          type: "CANCEL",
          cancelled_operation_id: captureId,
          note: `Cancels ${captureId}`,
        })
        expect(view.operations.find((operation) => operation.operation_id === captureId)?.note).toBe(
          `Cancelled by ${cancel.operationId}`,
        )
        // The gateway takes a new capture of the whole authorization; nothing is captured to refund.
        expect(view).toMatchObject({ capturable: { amount: "39.98", currency: "EUR" }, refundable: null })

        const again = await post(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
          operation_id: captureId,
          reason: "Again",
        })
        expect([again.status, again.data.message]).toEqual([
          400,
          `operation_id: capture ${captureId} is already cancelled (gateway operation ${cancel.operationId}) and recorded in Medusa`,
        ])
        expect((await gatewayRequests("POST", "/operations/*/cancels")).length).toBe(1)
        expect((await onlyPayment(orderId)).refunds).toHaveLength(1)
      })

      it("voids the authorization a full cancel gave back when staff send the request again after the void failed", async () => {
        const { orderId, gatewayOrderId, paymentId } = await paidCardOrder()
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId } })
        const captureId = await captureOperationOf(gatewayOrderId)
        const ledger = container.resolve<NexiLedgerService>(NEXI_LEDGER_MODULE)
        const voidWrite = async () => (await ledger.writesOf(gatewayOrderId)).find((write) => write.kind === "void")
        const cancelCapture = () =>
          post<NexiPaymentActionResponse>(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
            operation_id: captureId,
            reason: "Captured by mistake",
          })
        // The gateway answers 503 to every try of the void after the cancel; the order, read then, shows it was not made.
        await simulator.control("POST", "/faults", {
          match: { method: "POST", path: `${GATEWAY}/operations/*/refunds` },
          action: { type: "status", status: 503 },
        })

        const failed = await cancelCapture()
        expect(failed.data.message).toBe(
          `Capture ${captureId} is cancelled at the gateway and recorded in Medusa, but the authorization it gave back is still held. Could not void the authorization given back by the cancel of capture ${captureId}: the gateway did not answer, and its own record shows the void of 39.98 EUR was not made. Nothing was done; you can try again. Sending the same request again voids it.`,
        )
        await simulator.control("DELETE", "/faults")
        const cancelled = await gatewayOrder(gatewayOrderId)
        const cancel = cancelled.operations.find((operation) => operation.operationType === "CANCEL")!
        expect(cancelled.orderStatus).toMatchObject({ authorizedAmount: "3998", capturedAmount: "0" })
        expect((await onlyPayment(orderId)).refunds.map((refund: { amount: number }) => refund.amount)).toEqual([39.98])
        expect(await voidWrite()).toMatchObject({ outcome: "refused" })

        const again = await cancelCapture()
        const atGateway = await gatewayOrder(gatewayOrderId)
        const voided = atGateway.operations.find((operation) => operation.operationType === "VOID")
        expect([again.status, again.data.message]).toEqual([
          200,
          `Capture ${captureId} (39.98 EUR) was already cancelled at the gateway (operation ${cancel.operationId}); its refund was already recorded in Medusa. Voided the authorization the cancel gave back (operation ${voided?.operationId}).`,
        ])
        expect(atGateway.orderStatus).toMatchObject({ authorizedAmount: "0", capturedAmount: "0" })
        expect(voided?.operationResult).toBe("VOIDED")
        expect(await voidWrite()).toMatchObject({ outcome: "executed", gateway_operation_id: voided?.operationId })
        expect(await gatewayRequests("POST", "/operations/*/cancels")).toHaveLength(1)
        expect((await onlyPayment(orderId)).refunds).toHaveLength(1)

        // Nothing is left to do: a third request says so and sends nothing.
        const refundsSent = (await gatewayRequests("POST", "/operations/*/refunds")).length
        const third = await cancelCapture()
        expect([third.status, third.data.message]).toEqual([
          400,
          `operation_id: capture ${captureId} is already cancelled (gateway operation ${cancel.operationId}) and recorded in Medusa`,
        ])
        expect(await gatewayRequests("POST", "/operations/*/refunds")).toHaveLength(refundsSent)
      })

      it("refuses what is not a capture of this payment, and shows the gateway's refusal, changing nothing", async () => {
        const { orderId, gatewayOrderId, paymentId } = await paidCardOrder()
        const authorization = (await gatewayOrder(gatewayOrderId)).operations.find(
          (operation) => operation.operationResult === "AUTHORIZED",
        )!
        const notCapture = await post(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
          operation_id: authorization.operationId,
          reason: "x",
        })
        expect([notCapture.status, notCapture.data.message]).toEqual([
          400,
          `operation_id: ${authorization.operationId} is not a capture (its type is AUTHORIZATION); only a capture can be cancelled`,
        ])
        const unknown = await post(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
          operation_id: "999999999999999",
          reason: "x",
        })
        expect(unknown.data.message).toBe(
          `operation_id: 999999999999999 is not an operation of this payment's gateway order ${gatewayOrderId}`,
        )

        // A capture made yesterday (the simulator's clock) may no longer be cancelled: PS0002.
        await simulator.control("POST", "/clock", { offsetMs: -86_400_000 })
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId } })
        await simulator.control("POST", "/clock", { offsetMs: 0 })
        const refused = await post(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
          operation_id: await captureOperationOf(gatewayOrderId),
          reason: "Too late",
        })
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(
          /^Could not cancel capture \d+: The Nexi gateway refused the request \(PS0002: cancel refused: .*same day/,
        )
        expect((await gatewayOrder(gatewayOrderId)).orderStatus.capturedAmount).toBe("3998")
        expect((await onlyPayment(orderId)).refunds).toHaveLength(0)
        expect((await gatewayRequests("POST", "/operations/*/cancels")).map((request) => request.status)).toEqual([400])
      })
    })

    describe("sync", () => {
      it("records a refund made in the gateway's back office, then has nothing more to do", async () => {
        const { orderId, gatewayOrderId, paymentId } = await paidCardOrder()
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId } })
        const captureId = await captureOperationOf(gatewayOrderId)
        await simulator.gateway(`/operations/${captureId}/refunds`, {
          amount: "450",
          currency: "EUR",
          description: "Back office",
        })

        const synced = await post<NexiPaymentActionResponse>(`/admin/nexi/payments/${paymentId}/sync`)
        expect(synced.status).toBe(200)
        expect(synced.data.message).toBe("Recorded a refund of 4.50 EUR made at the gateway outside Medusa.")
        const view = synced.data.payment as NexiCardPaymentView
        expect(view).toMatchObject({
          refunded: { amount: "4.50", currency: "EUR" },
          capturable: null,
          refundable: { amount: "35.48", currency: "EUR" },
        })
        // The gateway refuses to cancel a capture with refunds (PS0027): the route no longer offers it.
        expect(view.operations.find((operation) => operation.operation_id === captureId)?.cancellable).toBe(false)
        const payment = await onlyPayment(orderId)
        expect(payment.refunds.map((refund: { amount: number }) => refund.amount)).toEqual([4.5])
        expect((await gatewayRequests("POST", "/operations/*/refunds")).length).toBe(1)

        const again = await post<NexiPaymentActionResponse>(`/admin/nexi/payments/${paymentId}/sync`)
        expect(again.data.message).toBe("Nothing to record: Medusa already has every refund the gateway reports.")
        expect((await onlyPayment(orderId)).refunds).toHaveLength(1)
      })

      it("still records a back-office refund after a capture was cancelled and the payment captured again", async () => {
        const { orderId, gatewayOrderId, paymentId } = await paidCardOrder()
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId, amount: 25.5 } })
        const firstCapture = await captureOperationOf(gatewayOrderId)
        expect(
          (
            await post(`/admin/nexi/payments/${paymentId}/cancel-capture`, {
              operation_id: firstCapture,
              reason: "Wrong amount",
            })
          ).status,
        ).toBe(200)
        await capturePaymentWorkflow(container).run({ input: { payment_id: paymentId, amount: 10 } })
        const secondCapture = await captureOperationOf(gatewayOrderId)
        expect(secondCapture).not.toBe(firstCapture)
        await simulator.gateway(`/operations/${secondCapture}/refunds`, {
          amount: "400",
          currency: "EUR",
          description: "Back office",
        })

        const synced = await post<NexiPaymentActionResponse>(`/admin/nexi/payments/${paymentId}/sync`)
        expect(synced.data.message).toBe("Recorded a refund of 4.00 EUR made at the gateway outside Medusa.")
        const payment = await onlyPayment(orderId)
        expect(payment.refunds.map((refund: { amount: number }) => refund.amount).sort()).toEqual([25.5, 4])
        expect((synced.data.payment as NexiCardPaymentView).captured.amount).toBe("10.00")
      })
    })

    describe("MOTO payments", () => {
      it("lists what the MOTO form offers to pick: draft orders found by number, email or customer name; orders only while they owe", async () => {
        const draftId = await draftOrder()
        const candidates = async (target: MotoTarget, search: string) => {
          const { path, member } = motoCandidatesRequest(target, search)
          const answer = await get(path)
          expect(answer.status).toBe(200)
          return (answer.data[member] as Array<Parameters<typeof motoCandidateOf>[1]>).map((row) =>
            motoCandidateOf(target, row),
          )
        }
        const [newest] = await candidates("draft_order_id", "")
        expect(newest).toEqual({
          id: draftId,
          display_id: expect.any(Number),
          email: "giulia@example.com",
          customer_name: "Giulia Rossi",
          amount: { amount: "39.98", currency: "EUR" },
        })
        for (const search of [String(newest.display_id), "giulia@example", "Rossi"]) {
          expect((await candidates("draft_order_id", search)).map((candidate) => candidate.id)).toEqual([draftId])
        }
        expect(await candidates("draft_order_id", "nobody@example.com")).toEqual([])

        expect((await post("/admin/nexi/moto", { draft_order_id: draftId, card: CARDS.approved })).status).toBe(200)
        expect(await candidates("draft_order_id", "giulia@example")).toEqual([])
        // The order it became is paid (authorized): not an order with an unpaid balance.
        expect(await candidates("order_id", String(newest.display_id))).toEqual([])
        expect((await get("/admin/nexi/moto/orders?limit=5")).status).toBe(400)
      })

      it("pays a draft order by phone, converts it, and lets staff capture it with Medusa's workflow", async () => {
        const draftId = await draftOrder()
        const paid = await post<NexiStaffChargeResponse>("/admin/nexi/moto", {
          draft_order_id: draftId,
          card: CARDS.approved,
          card_holder_name: "Giulia Rossi",
        })
        expect(paid.status).toBe(200)
        expect(paid.data.order_id).toBe(draftId)
        const view = paid.data.payment as NexiCardPaymentView
        expect(view).toMatchObject({
          kind: "card",
          provider_id: NEXI_CARD_PROVIDER,
          circuit: "VISA",
          masked_card: "***7289",
          authorized: { amount: "39.98", currency: "EUR" },
          captured: { amount: "0.00", currency: "EUR" },
        })
        expect(view.operations).toEqual([
          expect.objectContaining({
            type: "AUTHORIZATION",
            result: "AUTHORIZED",
            channel: "BACKOFFICE",
            warnings: [expect.objectContaining({ code: "TRA001" })],
          }),
        ])
        expect(paid.data.message).toBe(
          `Charged 39.98 EUR to VISA ***7289 by MOTO (gateway order ${view.gateway_order_id}): authorized; capture it from the order's payments. The draft order was converted into an order.`,
        )

        const order = await medusaOrder(draftId)
        expect(order).toMatchObject({ is_draft_order: false, status: "pending" })
        const payment = await onlyPayment(draftId)
        expect(payment).toMatchObject({ id: view.payment_id, provider_id: NEXI_CARD_PROVIDER, amount: 39.98 })
        expect(payment.data).toMatchObject({
          staff_channel: "moto",
          order_id: view.gateway_order_id,
          status: "authorized",
        })

        const atGateway = await gatewayOrder(view.gateway_order_id)
        expect(atGateway.orderStatus.order).toMatchObject({
          amount: "3998",
          currency: "EUR",
          customField: payment.payment_session_id,
          customerInfo: { cardHolderName: "Giulia Rossi", cardHolderEmail: "giulia@example.com" },
        })
        const [request] = await gatewayRequests("POST", "/orders/moto")
        expect(request.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

        await capturePaymentWorkflow(container).run({ input: { payment_id: payment.id } })
        expect((await gatewayOrder(view.gateway_order_id)).orderStatus.capturedAmount).toBe("3998")

        const twice = await post("/admin/nexi/moto", { order_id: draftId, card: CARDS.approved })
        expect(twice.status).toBe(400)
        // Named as staff know it, by its number, never by Medusa's ids.
        expect(twice.data.message).toMatch(/^Order #\d+ is already paid \(its payment is [a-z ]+\); a MOTO payment/)
        expect(await gatewayRequests("POST", "/orders/moto")).toHaveLength(1)
      })

      it("pays an order's unpaid payment collection, for the amount Medusa says is owed", async () => {
        const draftId = await draftOrder()
        expect((await post(`/admin/draft-orders/${draftId}/convert-to-order`)).status).toBe(200)
        const created = await post("/admin/payment-collections", { order_id: draftId, amount: 39.98 })
        expect(created.status).toBe(200)
        const collectionId = created.data.payment_collection.id

        const paid = await post<NexiStaffChargeResponse>("/admin/nexi/moto", {
          order_id: draftId,
          card: CARDS.approvedMc,
        })
        expect(paid.status).toBe(200)
        expect(paid.data.message).not.toMatch(/draft/)
        const order = await medusaOrder(draftId)
        const collection = order.payment_collections.find((candidate: { id: string }) => candidate.id === collectionId)
        expect(collection.status).toBe("authorized")
        expect(collection.payments.map((payment: { id: string }) => payment.id)).toEqual([paid.data.payment.payment_id])
        expect((paid.data.payment as NexiCardPaymentView).masked_card).toBe("***2903")
      })

      it("refuses a declined card, changing nothing, then pays with another card under a new gateway order", async () => {
        const draftId = await draftOrder()
        const declined = await post("/admin/nexi/moto", { draft_order_id: draftId, card: CARDS.declined })
        expect([declined.status, declined.data.type, declined.data.message]).toEqual([
          422,
          "payment_authorization_error",
          "The card was not accepted: The card issuer declined the payment.",
        ])
        expect(await medusaOrder(draftId)).toMatchObject({ is_draft_order: true })
        expect(
          (await medusaOrder(draftId)).payment_collections.flatMap((collection: any) => collection.payments),
        ).toEqual([])

        const paid = await post<NexiStaffChargeResponse>("/admin/nexi/moto", {
          draft_order_id: draftId,
          card: CARDS.approved,
        })
        expect(paid.status).toBe(200)
        const motoOrders = (await gatewayRequests("POST", "/orders/moto")).length
        expect(motoOrders).toBe(2)
        const { operations } = await simulator.gateway<{
          operations: Array<{ orderId: string; operationResult: string }>
        }>("/operations?operationType=AUTHORIZATION")
        expect(operations.map((operation) => operation.operationResult).sort()).toEqual(["AUTHORIZED", "DECLINED"])
        expect(new Set(operations.map((operation) => operation.orderId)).size).toBe(2)
        expect(await onlyPayment(draftId)).toMatchObject({ amount: 39.98 })
      })

      it("charges once when the gateway's answer is lost, whether the plugin or staff repeat the request", async () => {
        const motoPath = `${GATEWAY}/orders/moto`
        // 1. The answer is lost once: the transport repeats it with the same key and order id.
        const first = await draftOrder()
        await simulator.control("POST", "/faults", {
          match: { method: "POST", path: motoPath },
          times: 1,
          phase: "after",
          action: { type: "status", status: 503 },
        })
        const recovered = await post<NexiStaffChargeResponse>("/admin/nexi/moto", {
          draft_order_id: first,
          card: CARDS.approved,
        })
        expect(recovered.status).toBe(200)
        const sent = await gatewayRequests("POST", "/orders/moto")
        expect(sent.map((request) => request.status)).toEqual([503, 400])
        expect(new Set(sent.map((request) => request.idempotencyKey)).size).toBe(1)
        const recoveredOrderId = (recovered.data.payment as NexiCardPaymentView).gateway_order_id
        expect((await gatewayOrder(recoveredOrderId)).operations).toHaveLength(1)

        // 2. Every answer is lost and the gateway cannot be read either: staff are told to send it again.
        await simulator.control("DELETE", "/faults")
        const second = await draftOrder()
        await simulator.control("POST", "/faults", {
          match: { method: "POST", path: motoPath },
          phase: "after",
          action: { type: "status", status: 503 },
        })
        await simulator.control("POST", "/faults", {
          match: { method: "GET", path: `${GATEWAY}/orders/*` },
          action: { type: "status", status: 503 },
        })
        const unknown = await post("/admin/nexi/moto", { draft_order_id: second, card: CARDS.approved })
        expect(unknown.status).toBe(500)
        expect(unknown.data.message).toMatch(
          /is unknown: the gateway could not be read\. Send the same request again: it reads the gateway first and never acts twice\.$/,
        )
        const postsBefore = (await gatewayRequests("POST", "/orders/moto")).length

        await simulator.control("DELETE", "/faults")
        const repeated = await post<NexiStaffChargeResponse>("/admin/nexi/moto", {
          draft_order_id: second,
          card: CARDS.approved,
        })
        expect(repeated.status).toBe(200)
        expect((await gatewayRequests("POST", "/orders/moto")).length).toBe(postsBefore)
        const { operations } = await simulator.gateway<{ operations: Array<{ orderId: string }> }>(
          "/operations?operationType=AUTHORIZATION",
        )
        expect(operations.map((operation) => operation.orderId).sort()).toEqual(
          [recoveredOrderId, (repeated.data.payment as NexiCardPaymentView).gateway_order_id].sort(),
        )
        expect(await onlyPayment(second)).toMatchObject({ amount: 39.98 })
      })
    })

    describe("a MOTO charge nobody repeats", () => {
      it("is read by the job when Medusa could not record it: the attempt is watched from the start", async () => {
        const draftId = await draftOrder()
        // The card is charged, but authorizing the session reads the order, which the gateway refuses to show now.
        await simulator.control("POST", "/faults", {
          match: { method: "GET", path: `${GATEWAY}/orders/*` },
          action: { type: "status", status: 503 },
        })
        const unrecorded = await post("/admin/nexi/moto", { draft_order_id: draftId, card: CARDS.approved })
        expect([unrecorded.status, unrecorded.data.message]).toEqual([
          500,
          expect.stringMatching(/^The card was charged .* but Medusa could not record the payment/),
        ])
        await simulator.control("DELETE", "/faults")
        const ledger = container.resolve<NexiLedgerService>(NEXI_LEDGER_MODULE)
        const [charge] = await ledger.listNexiMoneyWrites({ kind: "moto" }, { order: { created_at: "DESC" }, take: 1 })
        const readsBefore = (await gatewayRequests("GET", `/orders/${charge.gateway_ref}`)).length

        // Nobody sends the request again; the job runs once the attempt is due.
        await reconcilePendingSessions(container, new Date(Date.now() + 10 * 60_000))

        expect((await gatewayRequests("GET", `/orders/${charge.gateway_ref}`)).length).toBeGreaterThan(readsBefore)
        expect(await ledger.findAttempt(charge.gateway_ref)).toMatchObject({
          state: "paid",
          checks: 0,
          next_check_at: expect.any(Date),
        })
      })
    })

    describe("released payments and ledger issues", () => {
      it("lists the payments the plugin released with their cart's order, and shows them and a write of unknown outcome on the order page", async () => {
        const { orderId, cartId, gatewayOrderId } = await paidCardOrder()
        const ledger = container.resolve<NexiLedgerService>(NEXI_LEDGER_MODULE)
        // Written straight into the ledger: what the reconciliation job leaves after releasing
        // a second payment of the cart, and a mobile payment of a cart that never became an order.
        await ledger.createNexiPaymentAttempts([
          {
            provider_identifier: "nexi",
            gateway_ref: "RELEASED0001",
            cart_id: cartId,
            amount_minor: "3998",
            currency: "EUR",
            state: "released",
            released_at: new Date("2026-01-15T10:00:00Z"),
            note: "Paid after the cart had become an order: voided.",
          },
          {
            provider_identifier: "nexi-apm-psp-b",
            gateway_ref: "tx-released-0002",
            cart_id: "cart_01NEVERORDERED",
            amount_minor: "1250",
            currency: "EUR",
            state: "released",
            released_at: new Date("2026-01-16T10:00:00Z"),
            note: "Approved after the session was deleted: reversed.",
          },
        ])
        const lost = await ledger.requestWrite({
          kind: "refund",
          idempotency_key: "admin-routes-lost-refund",
          gateway_ref: gatewayOrderId,
          amount_minor: "500",
          currency: "EUR",
        })
        await ledger.updateWrite(lost.idempotency_key, { outcome: "unknown" })

        const listed = await get<NexiReleasedPaymentsResponse>("/admin/nexi/released-payments")
        expect(listed.status).toBe(200)
        expect(listed.data.released_payments).toEqual([
          {
            gateway_ref: "tx-released-0002",
            kind: "mobile",
            provider_identifier: "nexi-apm-psp-b",
            cart_id: "cart_01NEVERORDERED",
            order_id: null,
            amount: "12.50",
            currency: "EUR",
            released_at: "2026-01-16T10:00:00.000Z",
            note: "Approved after the session was deleted: reversed.",
          },
          {
            gateway_ref: "RELEASED0001",
            kind: "card",
            provider_identifier: "nexi",
            cart_id: cartId,
            order_id: orderId,
            amount: "39.98",
            currency: "EUR",
            released_at: "2026-01-15T10:00:00.000Z",
            note: "Paid after the cart had become an order: voided.",
          },
        ])
        const newest = await get<NexiReleasedPaymentsResponse>("/admin/nexi/released-payments?limit=1")
        expect(newest.data.released_payments.map((released) => released.gateway_ref)).toEqual(["tx-released-0002"])
        for (const limit of ["0", "201", "ten"]) {
          const refused = await get(`/admin/nexi/released-payments?limit=${limit}`)
          expect([refused.status, refused.data.message]).toEqual([400, "limit: must be a whole number from 1 to 200"])
        }

        const { status, data } = await get<NexiOrderPaymentsResponse>(`/admin/nexi/medusa-orders/${orderId}/payments`)
        expect(status).toBe(200)
        expect(data.payments[0].ledger_issues).toEqual([
          {
            write_id: lost.id,
            kind: "refund",
            problem: "outcome_unknown",
            amount: { amount: "5.00", currency: "EUR" },
            requested_at: expect.any(String),
            message:
              "Refund of 5.00 EUR: the gateway's answer was lost and its outcome is not known yet; do not refund again, the plugin checks every minute.",
          },
        ])
        expect(data.released_payments).toEqual([listed.data.released_payments[1]])
      })
    })

    describe("card verification", () => {
      it("answers the gateway's verdict with the masked card, for a valid and a declined card", async () => {
        const valid = await post<NexiCardVerificationResponse>("/admin/nexi/card-verifications", {
          card: CARDS.approved,
          customer_email: "giulia@example.com",
        })
        expect(valid.status).toBe(200)
        expect(valid.data).toEqual({
          operation_id: expect.stringMatching(/^\d+$/),
          result: "EXECUTED",
          valid: true,
          circuit: "VISA",
          masked_card: "***7289",
        })
        const checked = await simulator.gateway<Record<string, any>>(`/operations/${valid.data.operation_id}`)
        const order = await gatewayOrder(checked.orderId)
        expect(order.orderStatus.order).toMatchObject({
          amount: "0",
          customerInfo: { cardHolderEmail: "giulia@example.com" },
        })
        // Sent through the one sender: recorded before it was sent, settled with its operation.
        const ledger = container.resolve<{ writesOf(ref: string): Promise<Array<Record<string, unknown>>> }>(
          "nexi_ledger",
        )
        expect(await ledger.writesOf(checked.orderId)).toEqual([
          expect.objectContaining({
            kind: "card_verification",
            outcome: "executed",
            gateway_operation_id: valid.data.operation_id,
          }),
        ])

        const declined = await post<NexiCardVerificationResponse>("/admin/nexi/card-verifications", {
          card: { ...CARDS.declined, cvv: undefined },
        })
        expect(declined.status).toBe(200)
        expect(declined.data).toMatchObject({ result: "DECLINED", valid: false, circuit: "MC", masked_card: "***8729" })
      })
    })
  },
})

afterAll(() => {
  output.stop()
  const logs = output.textSince(0)
  // The search below is only worth something if the capture saw the app's own log lines.
  expect(logs).toMatch(/"level":"info"/)
  for (const [where, text] of [
    ["the suite's output", logs],
    ["an answer", answers.join("\n")],
  ] as const) {
    for (const card of Object.values(CARDS))
      expect({ where, leaked: text.includes(card.pan) }).toEqual({ where, leaked: false })
    expect({ where, leaked: text.includes(SANDBOX_API_KEY) }).toEqual({ where, leaked: false })
    expect({ where, leaked: text.includes(APM_CONSUMER_SECRET) }).toEqual({ where, leaked: false })
    // A CVV is only ever sent as a JSON member; it must not come back or be logged as one
    // (log lines hold JSON inside JSON, so the quotes may be escaped).
    expect({ where, cvv: CVV_MEMBER.test(text) }).toEqual({ where, cvv: false })
  }
  expect(answers.join("\n")).not.toMatch(/"cvv"|"pan"|"expiryDate"/)
})

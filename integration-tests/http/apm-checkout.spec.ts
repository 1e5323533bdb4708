/**
 * The mobile payment providers end to end: a real Medusa store on PostgreSQL, the storefront's
 * calls through the store API, the shopper's decision in the simulator's consumer app (its
 * control API), the cart completed by the status route the storefront polls, and staff
 * actions through Medusa's workflows.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { ApmSessionData } from "../../src/core/mobile/apm-session-data"
import { NEXI_LEDGER_MODULE } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { simulatorForSuite } from "../support/simulator"
import {
  createCart,
  createProduct,
  createRegion,
  createTaxRegion,
  eventually,
  seedStoreBasics,
  startPaymentSession,
  storeHeaders,
} from "../support/store"

jest.setTimeout(240_000)

const simulator = simulatorForSuite()

type Currency = "eur" | "sek" | "dkk"
const COUNTRY: Record<Currency, string> = { eur: "it", sek: "se", dkk: "dk" }
const VAT_PERCENT: Record<Currency, number> = { eur: 22, sek: 25, dkk: 25 }

const SCHEMES = [
  { providerId: "pp_nexi-apm-psp-a-e-com_nexi", currency: "eur" },
  { providerId: "pp_nexi-apm-psp-b_nexi", currency: "eur" },
  { providerId: "pp_nexi-apm-psp-c_nexi", currency: "sek" },
  { providerId: "pp_nexi-apm-psp-d_nexi", currency: "dkk" },
] as const

/** A consumer the simulator leaves waiting for a decision (no scripted outcome). */
const WAITING_CONSUMER = "+4712345678"

type StatusAnswer = {
  payment_session: { id: string; status: string; provider_id: string; data: Partial<ApmSessionData> }
  cart_completed: boolean
  order_id?: string
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let regions: Record<Currency, string>
    let variantId: string

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      const basics = await seedStoreBasics(container)
      publishableKey = basics.publishableKey
      regions = {} as Record<Currency, string>
      for (const currency of Object.keys(COUNTRY) as Currency[]) {
        await createTaxRegion(container, COUNTRY[currency], VAT_PERCENT[currency])
        regions[currency] = (
          await createRegion(container, { name: currency, currency_code: currency, countries: [COUNTRY[currency]] })
        ).id
      }
      variantId = (
        await createProduct(container, basics.salesChannelId, [
          { currency_code: "eur", amount: 10 },
          { currency_code: "sek", amount: 100 },
          { currency_code: "dkk", amount: 80 },
        ])
      ).variantId
    })

    async function openCheckout(
      providerId: string,
      currency: Currency,
      data: Record<string, unknown> = { consumer_id: WAITING_CONSUMER },
    ) {
      const cart = await createCart(api, publishableKey, {
        regionId: regions[currency],
        variantId,
        quantity: 2,
        countryCode: COUNTRY[currency],
      })
      const { session, collectionId } = await startPaymentSession(api, publishableKey, cart.id, providerId, data)
      return { cart, session, collectionId }
    }

    /** The cart a session pays for, which the status route asks the storefront to name. */
    async function cartOfSession(sessionId: string): Promise<string> {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data: sessions } = await query.graph({
        entity: "payment_session",
        fields: ["payment_collection_id"],
        filters: { id: sessionId },
      })
      const { data: links } = await query.graph({
        entity: "cart_payment_collection",
        fields: ["cart_id"],
        filters: { payment_collection_id: sessions[0].payment_collection_id },
      })
      return links[0].cart_id
    }

    async function pollStatus(sessionId: string): Promise<StatusAnswer> {
      const cartId = await cartOfSession(sessionId)
      const { data } = await api.get(
        `/store/nexi/payment-sessions/${sessionId}?cart_id=${cartId}`,
        storeHeaders(publishableKey),
      )
      return data
    }

    /** Polls the status route, as a storefront does, until `done` holds. */
    function pollUntil(sessionId: string, done: (answer: StatusAnswer) => boolean) {
      return eventually(async () => {
        const answer = await pollStatus(sessionId)
        return done(answer) ? answer : undefined
      })
    }

    async function transactionAt(transactionId: string | undefined) {
      const status = await simulator.apmTransaction(String(transactionId))
      return { status, transaction: status.response?.request?.transaction }
    }

    async function decide(transactionId: string, action: "approve" | "reject" | "expire") {
      await simulator.control("POST", `/apm/${transactionId}/${action}`)
    }

    async function paymentOfOrder(orderId: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "id",
          "payment_collections.payments.id",
          "payment_collections.payments.data",
          "payment_collections.payments.captured_at",
          "payment_collections.payments.captures.id",
        ],
        filters: { id: orderId },
      })
      return data[0]?.payment_collections?.[0]?.payments?.[0] as {
        id: string
        data: Partial<ApmSessionData>
        captured_at: unknown
        captures: unknown[]
      }
    }

    async function payAndComplete(providerId: string, currency: Currency) {
      const checkout = await openCheckout(providerId, currency)
      await decide(checkout.session.data.transaction_id, "approve")
      const answer = await pollUntil(checkout.session.id, (status) => status.cart_completed)
      return { ...checkout, orderId: answer.order_id!, answer }
    }

    describe("checkout", () => {
      it.each(SCHEMES)(
        "pays with $providerId: amounts, VAT and lines at the service, approval, order with a captured payment",
        async ({ providerId, currency }) => {
          const { cart, session } = await openCheckout(providerId, currency)
          expect(session.status).toBe("pending")
          expect(session.data).toMatchObject({
            status: "pending",
            state: "PENDING",
            consumer_id: WAITING_CONSUMER,
            consumer_name: "Giulia Rossi",
          })
          expect(session.data.approval_url).toBe(`${simulator.url}/apm/phone/${session.data.transaction_id}`)
          expect(session.data).not.toHaveProperty("nexi_cart")

          const unitMinor = { eur: 1000, sek: 10000, dkk: 8000 }[currency]
          const rate = VAT_PERCENT[currency]
          const net = 2 * unitMinor
          const vat = (net * rate) / 100
          expect(Math.round(Number(cart.total) * 100)).toBe(net + vat)
          const { status, transaction } = await transactionAt(session.data.transaction_id)
          expect(transaction?.amount).toEqual({
            currencyCode: currency.toUpperCase(),
            nominalAmount: net,
            vatAmount: vat,
            totalAmount: net + vat,
          })
          expect(transaction?.order?.items).toEqual([
            expect.objectContaining({
              quantity: 2,
              unitPrice: unitMinor,
              taxRate: rate * 100,
              taxAmount: vat,
              netTotalAmount: net,
              grossTotalAmount: net + vat,
            }),
          ])
          expect(status.response?.request?.ecr2Naa?.reference).toBe(session.id)

          const pending = await pollStatus(session.id)
          expect(pending).toMatchObject({
            cart_completed: false,
            payment_session: { status: "pending", provider_id: providerId },
          })
          expect(pending.payment_session.data.approval_url).toBe(session.data.approval_url)

          await decide(session.data.transaction_id, "approve")
          const done = await pollUntil(session.id, (answer) => answer.cart_completed)
          expect(done.order_id).toMatch(/^order_/)
          expect(done.payment_session).toMatchObject({
            status: "authorized",
            data: { transaction_id: session.data.transaction_id, reason: null },
          })
          const payment = await paymentOfOrder(done.order_id!)
          expect(payment.captured_at).toBeTruthy()
          expect(payment.captures).toHaveLength(1)
        },
      )

      it("asks the payment app for the storefront's language (data.language), kept by the session", async () => {
        const { session } = await openCheckout("pp_nexi-apm-psp-b_nexi", "eur", {
          consumer_id: WAITING_CONSUMER,
          language: "de-CH",
        })
        expect(session.data.language).toBe("de-CH")
        const { status } = await transactionAt(session.data.transaction_id)
        expect(status.response?.request?.ecr2Naa?.lang).toBe("de")
      })

      it("shows a rejection in the app with its reason, and lets the shopper pay with a new session", async () => {
        const { session, collectionId, cart } = await openCheckout("pp_nexi-apm-psp-b_nexi", "eur")
        await decide(session.data.transaction_id, "reject")
        const rejected = await pollUntil(session.id, (answer) => answer.payment_session.status !== "pending")
        expect(rejected).toMatchObject({ cart_completed: false, payment_session: { status: "error" } })
        expect(rejected.payment_session.data.reason).toBe(
          "The mobile payment scheme rejected the payment. Rejected by the consumer.",
        )

        const { data } = await api.post(
          `/store/payment-collections/${collectionId}/payment-sessions`,
          { provider_id: "pp_nexi-apm-psp-b_nexi", data: { consumer_id: WAITING_CONSUMER } },
          storeHeaders(publishableKey),
        )
        const retry = data.payment_collection.payment_sessions[0]
        expect(retry.id).not.toBe(session.id)
        expect(retry.data.transaction_id).not.toBe(session.data.transaction_id)
        await decide(retry.data.transaction_id, "approve")
        const done = await pollUntil(retry.id, (answer) => answer.cart_completed)
        expect(done.order_id).toBeDefined()
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const { data: links } = await query.graph({
          entity: "order_cart",
          fields: ["order_id"],
          filters: { cart_id: cart.id },
        })
        expect(links[0]?.order_id).toBe(done.order_id)
      })

      it("shows an approval that expired in the app with its reason", async () => {
        const { session } = await openCheckout("pp_nexi-apm-psp-c_nexi", "sek")
        await decide(session.data.transaction_id, "expire")
        const expired = await pollUntil(session.id, (answer) => answer.payment_session.status !== "pending")
        expect(expired.payment_session.status).toBe("error")
        expect(expired.payment_session.data.reason).toBe(
          "The payment was not approved in the mobile payment app in time. The consumer did not answer in time.",
        )
      })

      it("keeps a payment the scheme refused at once (201) as a session in error with the reason", async () => {
        const { session } = await openCheckout("pp_nexi-apm-psp-d_nexi", "dkk", { consumer_id: "+4511110000" })
        expect(session.status).toBe("error")
        expect(session.data.reason).toBe(
          "The mobile payment scheme rejected the payment. The scheme refused the consumer.",
        )
        const answer = await pollStatus(session.id)
        expect(answer).toMatchObject({ cart_completed: false, payment_session: { status: "error" } })
      })
    })

    describe("after the order", () => {
      it("refunds in parts, each refund linked to the payment with VAT in proportion", async () => {
        const { orderId, session } = await payAndComplete("pp_nexi-apm-psp-b_nexi", "eur")
        const payment = await paymentOfOrder(orderId)
        await refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 12.2 } })
        await refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 6.1 } })
        const refunded = await paymentOfOrder(orderId)
        const refundIds = refunded.data.refund_transaction_ids ?? []
        expect(refundIds).toHaveLength(2)
        const refunds = await Promise.all(refundIds.map(async (id) => (await transactionAt(id)).transaction))
        expect(refunds.map((refund) => refund?.originalReference)).toEqual([
          session.data.transaction_id,
          session.data.transaction_id,
        ])
        expect(refunds.map((refund) => refund?.amount)).toEqual([
          { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 220, totalAmount: 1220 },
          { currencyCode: "EUR", nominalAmount: 500, vatAmount: 110, totalAmount: 610 },
        ])
        // Medusa itself refuses a refund beyond what is left; nothing more reaches the service.
        await expect(
          refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 10 } }),
        ).rejects.toMatchObject({
          message: expect.stringMatching(/not allowed to refund more than the captured amount/),
        })
        expect((await paymentOfOrder(orderId)).data.refund_transaction_ids).toEqual(refundIds)
      })

      it("refunds 1.005 EUR twice as 101 + 100 by Medusa's refunded total, not 101 + 101", async () => {
        const { orderId } = await payAndComplete("pp_nexi-apm-psp-b_nexi", "eur")
        const payment = await paymentOfOrder(orderId)
        await refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 1.005 } })
        await refundPaymentWorkflow(container).run({ input: { payment_id: payment.id, amount: 1.005 } })
        const refunded = await paymentOfOrder(orderId)
        const refunds = await Promise.all(
          (refunded.data.refund_transaction_ids ?? []).map(async (id) => (await transactionAt(id)).transaction),
        )
        expect(refunds.map((refund) => refund?.amount.totalAmount)).toEqual([101, 100])
        expect(refunded.data.refunded_minor).toBe("201")
      })

      it("reverses the payment at the service when Medusa cancels it", async () => {
        const { orderId, session } = await payAndComplete("pp_nexi-apm-psp-a-e-com_nexi", "eur")
        const payment = await paymentOfOrder(orderId)
        await container.resolve(Modules.PAYMENT).cancelPayment(payment.id)
        const original = await transactionAt(session.data.transaction_id)
        expect(original.status.state).toBe("CANCELLED")
        const cancelled = await paymentOfOrder(orderId)
        const reversal = await transactionAt(cancelled.data.reversal_transaction_id)
        expect(reversal.transaction).toMatchObject({
          originalReference: session.data.transaction_id,
          terminalReference: "sim-terminal",
          state: "FINALIZED",
        })
      })
    })

    describe("refusals the shopper or merchant can act on", () => {
      async function refusal(providerId: string, currency: Currency, data?: Record<string, unknown>) {
        const cart = await createCart(api, publishableKey, {
          regionId: regions[currency],
          variantId,
          countryCode: COUNTRY[currency],
        })
        const { data: collection } = await api.post(
          "/store/payment-collections",
          { cart_id: cart.id },
          storeHeaders(publishableKey),
        )
        const error = await api
          .post(
            `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
            { provider_id: providerId, data },
            storeHeaders(publishableKey),
          )
          .then(
            () => undefined,
            (thrown: { response?: { status: number; data: { message: string } } }) => thrown.response,
          )
        expect(error).toBeDefined()
        return error!
      }

      it("tells the shopper when the start's answer was lost, and the job gives back what they approve on it", async () => {
        const startPath = "/apm/ms/aapay/v2/transaction/payment/initializeWithIdempotency"
        // The scheduled job stays out for the test's two minutes: the test runs the job itself.
        await holdReconcileLock(container, "lost-start-test", 120)
        await simulator.control("POST", "/faults", {
          match: { method: "POST", path: startPath },
          times: 20,
          phase: "after",
          action: { type: "status", status: 503 },
        })
        const refused = await refusal("pp_nexi-apm-psp-b_nexi", "eur", { consumer_id: WAITING_CONSUMER })
        expect(refused.status).toBe(500)
        expect(refused.data.message).toMatch(
          /^Could not start the payment: the PSP_B service did not answer, so it is not known whether the payment request reached the shopper's app/,
        )
        await simulator.control("DELETE", "/faults")
        // Medusa deleted the session; the store's next runs find the transaction and watch it.
        const later = new Date(Date.now() + 5 * 60_000)
        expect((await reconcilePendingSessions(container, later)).paymentStarts).toEqual({
          found: 1,
          refused: 0,
          pending: 0,
        })
        const ledger = container.resolve(NEXI_LEDGER_MODULE) as {
          listNexiMoneyWrites(filters: Record<string, unknown>): Promise<Array<Record<string, unknown>>>
        }
        const [start] = await ledger.listNexiMoneyWrites({ kind: "apm_payment" })
        expect(start).toMatchObject({ outcome: "executed", resend: expect.anything() })
        const transactionId = String(start.gateway_operation_id)
        // The request reached the shopper's app, and they approve it there.
        await decide(transactionId, "approve")

        await reconcilePendingSessions(container, later)

        expect((await transactionAt(transactionId)).status.state).toBe("CANCELLED")
        expect((await reconcilePendingSessions(container, later)).paymentStarts).toBeUndefined()
      })

      it("refuses a session without the shopper's consumer id, naming the field", async () => {
        const error = await refusal("pp_nexi-apm-psp-b_nexi", "eur", {})
        expect(error.status).toBe(400)
        expect(error.data.message).toMatch(/data\.consumer_id/)
      })

      it("refuses a language it does not know, naming data.language, before any payment is asked for", async () => {
        const before = await simulator.control<{ requests: unknown[] }>("GET", "/requests")
        const error = await refusal("pp_nexi-apm-psp-b_nexi", "eur", {
          consumer_id: WAITING_CONSUMER,
          language: "klingon",
        })
        expect(error.status).toBe(400)
        expect(error.data.message).toMatch(/^data\.language: "klingon" is no language/)
        const after = await simulator.control<{ requests: unknown[] }>("GET", "/requests")
        expect(after.requests).toHaveLength(before.requests.length)
      })

      it("passes on the scheme's refusal of the cart's currency", async () => {
        const error = await refusal("pp_nexi-apm-psp-c_nexi", "eur", { consumer_id: WAITING_CONSUMER })
        expect(error.status).toBe(400)
        expect(error.data.message).toMatch(/Currency EUR is not accepted by PSP_C \(accepted: SEK\)/)
      })
    })

    describe("store routes", () => {
      it("lists the region's Nexi payment methods with names, logos and kinds", async () => {
        const { data } = await api.get(
          `/store/nexi/payment-methods?region_id=${regions.eur}`,
          storeHeaders(publishableKey),
        )
        expect(data.payment_methods).toEqual([
          expect.objectContaining({
            provider_id: "pp_nexi-apm-psp-a-e-com_nexi",
            kind: "mobile",
            name: "Mobile payment A (e-commerce)",
          }),
          expect.objectContaining({ provider_id: "pp_nexi-apm-psp-b_nexi", kind: "mobile", name: "Mobile payment B" }),
          expect.objectContaining({ provider_id: "pp_nexi-apm-psp-c_nexi", kind: "mobile" }),
          expect.objectContaining({ provider_id: "pp_nexi-apm-psp-d_nexi", kind: "mobile" }),
          expect.objectContaining({
            provider_id: "pp_nexi_nexi",
            kind: "card",
            name: "Card (Visa, Mastercard, Maestro, Amex)",
            // The wallets medusa-config.ts offers, each started as a card session with data.wallet.
            wallets: [
              { wallet: "GOOGLEPAY", name: "Google Pay" },
              { wallet: "APPLEPAY", name: "Apple Pay" },
            ],
          }),
        ])
        for (const method of data.payment_methods) expect(method.logo_url).toMatch(/^data:image\/svg\+xml/)
      })

      it("answers 400 naming region_id without one, and 404 for an unknown region", async () => {
        const failed = (url: string) =>
          api.get(url, storeHeaders(publishableKey)).then(
            () => undefined,
            (thrown: { response: { status: number; data: { message: string } } }) => thrown.response,
          )
        const missing = await failed("/store/nexi/payment-methods")
        expect(missing?.status).toBe(400)
        expect(missing?.data.message).toMatch(/region_id/)
        const unknown = await failed("/store/nexi/payment-methods?region_id=reg_unknown")
        expect(unknown?.status).toBe(404)
        expect(unknown?.data.message).toMatch(/region_id/)
        const badId = await failed("/store/nexi/payment-sessions/cart_123")
        expect(badId?.status).toBe(400)
        expect(badId?.data.message).toMatch(/^id: /)
        const noKey = await api.get(`/store/nexi/payment-methods?region_id=${regions.eur}`).then(
          () => undefined,
          (thrown: { response: { status: number } }) => thrown.response,
        )
        expect(noKey?.status).toBe(400)
      })
    })
  },
})

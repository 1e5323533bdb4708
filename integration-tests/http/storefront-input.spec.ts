/**
 * What a storefront (or anyone holding the publishable key) can send the plugin's store
 * surface, on a real Medusa store: payment session data beyond the documented keys is dropped
 * before Medusa stores it, the cart snapshot is always the server's, and the status route
 * answers only the session's own cart and reads the gateway at most once every few seconds
 * however fast it is asked.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { CARDS, CheckoutKit } from "../support/checkout-kit"
import { simulatorForSuite } from "../support/simulator"
import { createCart, eventually, NEXI_CARD_PROVIDER, startPaymentSession, storeHeaders } from "../support/store"

jest.setTimeout(180_000)

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const APM_PROVIDER = "pp_nexi-apm-psp-b_nexi"
/** A consumer whose payment waits for approval in the app (the simulator's default). */
const WAITING_CONSUMER = "+393331234567"

/** A cart snapshot as a hostile storefront would forge it: another cart, another shopper, a tiny total. */
const FORGED_CART = {
  cart_id: "cart_forged",
  email: "forged@example.com",
  customer_id: null,
  locale: "de-DE",
  currency_code: "eur",
  total: 0.01,
  tax_total: 0,
  shipping_total: 0,
  shipping_tax_total: 0,
  billing_address: null,
  shipping_address: null,
  items: [{ id: "item_forged", quantity: 1, unit_price: 0.01, subtotal: 0.01, tax_total: 0, total: 0.01, tax_rate: 0 }],
}

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let kit: CheckoutKit

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, () => container, simulator)
      await kit.seed()
    })

    const ledger = () => container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE)

    function newCart() {
      return createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
    }

    function status(sessionId: string, cartId?: string) {
      const query = cartId === undefined ? "" : `?cart_id=${encodeURIComponent(cartId)}`
      return api.get(`/store/nexi/payment-sessions/${sessionId}${query}`, storeHeaders(kit.publishableKey)).then(
        (answer: { status: number; data: any }) => ({ status: answer.status, body: answer.data }),
        (error: { response: { status: number; data: any } }) => ({
          status: error.response.status,
          body: error.response.data,
        }),
      )
    }

    describe("payment session data from the storefront", () => {
      it("drops moto, a forged cart snapshot, gateway fields and unknown keys from a card session, which then pays and updates", async () => {
        const cart = await newCart()
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, NEXI_CARD_PROVIDER, {
          moto: true,
          nexi_cart: FORGED_CART,
          order_id: "forged-order",
          hosted_page: "https://evil.example/pay",
          consumer_id: "+393331234567",
          coupon: "FREE",
        })
        expect(session.status).toBe("pending")
        for (const key of ["moto", "nexi_cart", "consumer_id", "coupon"]) expect(session.data).not.toHaveProperty(key)
        expect(session.data.order_id).not.toBe("forged-order")
        expect(session.data.hosted_page).toMatch(/^http:\/\/127\.0\.0\.1:/)
        // The provider used the server's cart: the ledger ties the gateway order to the real cart.
        expect((await ledger().findAttempt(session.data.order_id))?.cart_id).toBe(cart.id)

        // An update (a new amount) is what a storefront-sent `moto: true` used to block.
        const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
        const updated = await payment.updatePaymentSession({
          id: session.id,
          amount: 29.99,
          currency_code: "eur",
          data: (await kit.session(session.id)).data as Record<string, unknown>,
        })
        expect(updated.data?.moto).toBeUndefined()
        expect(updated.data?.order_id).not.toBe(session.data.order_id)
        expect((await kit.gatewayOrder(String(updated.data?.order_id))).orderStatus.order.amount).toBe("2999")
      })

      it("keeps a card session paid on its hosted page working: the cart completes", async () => {
        const cart = await newCart()
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, NEXI_CARD_PROVIDER, {
          moto: true,
          unknown: { nested: 1 },
        })
        await kit.pay(session.data.order_id, CARDS.approved, true)
        const orders = await eventually(async () => {
          const found = await kit.ordersOfCart(cart.id)
          return found.length ? found : undefined
        })
        expect(orders).toHaveLength(1)
      })

      it("refuses a wallet the store does not offer, naming data.wallet, and leaves the cart's card session as it was", async () => {
        const cart = await newCart()
        const { collectionId, session } = await startPaymentSession(
          api,
          kit.publishableKey,
          cart.id,
          NEXI_CARD_PROVIDER,
        )
        const refused = await api
          .post(
            `/store/payment-collections/${collectionId}/payment-sessions`,
            { provider_id: NEXI_CARD_PROVIDER, data: { wallet: "PAYPAL" } },
            storeHeaders(kit.publishableKey),
          )
          .catch((error: { response: { status: number; data: { message: string } } }) => error.response)
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(/^data\.wallet: must be "GOOGLEPAY" or "APPLEPAY"/)
        const [kept] = await kit.sessionsOfCart(cart.id)
        expect(kept.id).toBe(session.id)
        expect((await kit.session(session.id)).data.order_id).toBe(session.data.order_id)
        expect(await kit.requests("POST", `${GATEWAY}/orders/hpp`)).toHaveLength(1)
      })

      it("keeps only consumer_id for a mobile payment", async () => {
        const cart = await newCart()
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, APM_PROVIDER, {
          consumer_id: WAITING_CONSUMER,
          nexi_cart: FORGED_CART,
          moto: true,
          method: "PSP_D",
          extra: "x",
        })
        expect(session.status).toBe("pending")
        expect(session.data).toMatchObject({ consumer_id: WAITING_CONSUMER, method: "PSP_B" })
        for (const key of ["moto", "nexi_cart", "extra"]) expect(session.data).not.toHaveProperty(key)
        const transaction = (await simulator.apmTransaction(String(session.data.transaction_id))).response?.request
          ?.transaction
        // The forged snapshot's 0.01 EUR was not what the service was asked for.
        expect(transaction?.amount?.totalAmount).toBe(1999)
      })

      it("drops a forged cart snapshot for a payment collection that has no cart", async () => {
        const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
        const [collection] = await payment.createPaymentCollections([{ currency_code: "eur", amount: 19.99 }])
        const { data } = await api.post(
          `/store/payment-collections/${collection.id}/payment-sessions`,
          { provider_id: NEXI_CARD_PROVIDER, data: { nexi_cart: FORGED_CART } },
          storeHeaders(kit.publishableKey),
        )
        const session = data.payment_collection.payment_sessions.find(
          (row: { provider_id: string }) => row.provider_id === NEXI_CARD_PROVIDER,
        )
        expect(session.data).not.toHaveProperty("nexi_cart")
        const attempt = await ledger().findAttempt(session.data.order_id)
        expect(attempt).toBeDefined()
        expect(attempt?.cart_id).toBeNull()
      })
    })

    describe("GET /store/nexi/payment-sessions/:id", () => {
      it("answers only the session's own cart, the same 404 as an unknown session otherwise", async () => {
        const cart = await newCart()
        const other = await newCart()
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, NEXI_CARD_PROVIDER)

        const unknown = await status("payses_nosuchsession", cart.id)
        expect(unknown.status).toBe(404)
        for (const refused of [
          await status(session.id),
          await status(session.id, other.id),
          await status(session.id, ""),
        ]) {
          expect(refused).toEqual(unknown)
        }
        expect(JSON.stringify(unknown.body)).not.toContain(session.id)
        // Nothing was asked of the gateway for the refused requests.
        expect(await kit.requests("GET", `${GATEWAY}/orders/${session.data.order_id}`)).toHaveLength(0)

        const mine = await status(session.id, cart.id)
        expect(mine.status).toBe(200)
        expect(mine.body).toMatchObject({
          payment_session: { id: session.id, status: "pending" },
          cart_completed: false,
        })
      })

      it("reads the gateway at most once for many rapid polls of one session, and again after the interval", async () => {
        const cart = await newCart()
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, NEXI_CARD_PROVIDER)
        const orderReads = () => kit.requests("GET", `${GATEWAY}/orders/${session.data.order_id}`)
        expect(await orderReads()).toHaveLength(0)

        const concurrent = await Promise.all(Array.from({ length: 12 }, () => status(session.id, cart.id)))
        for (const answer of concurrent)
          expect(answer).toMatchObject({ status: 200, body: { payment_session: { status: "pending" } } })
        for (let poll = 0; poll < 5; poll += 1) expect((await status(session.id, cart.id)).status).toBe(200)
        expect(await orderReads()).toHaveLength(1)

        await new Promise((resolve) => setTimeout(resolve, 3_200))
        await Promise.all(Array.from({ length: 4 }, () => status(session.id, cart.id)))
        expect(await orderReads()).toHaveLength(2)
      })

      it("still shows a payment made between reads once the interval has passed", async () => {
        const cart = await newCart()
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, APM_PROVIDER, {
          consumer_id: WAITING_CONSUMER,
        })
        expect((await status(session.id, cart.id)).body.payment_session.status).toBe("pending")
        await simulator.control("POST", `/apm/${session.data.transaction_id}/approve`)
        const done = await eventually(async () => {
          const answer = await status(session.id, cart.id)
          return answer.body.cart_completed ? answer.body : undefined
        })
        expect(done.order_id).toMatch(/^order_/)
      })
    })
  },
})

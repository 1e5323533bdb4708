/**
 * Saved cards (docs/saved-cards.md) on a real Medusa store on PostgreSQL, with the simulator
 * over HTTP: customers registered and logged in through Medusa's auth routes, a card saved at
 * checkout (CONTRACT_CREATION) or without paying (VERIFY), one-click payments with it
 * (SUBSEQUENT_PAYMENT, only the CVV on the hosted page), deletion, another customer's and a
 * guest's attempts, a declined card, notifications checked like any other, and the admin's
 * view. The contract id pays with the card again: no answer a storefront or the admin reads
 * may hold it.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import {
  NEXI_LEDGER_MODULE,
  type PaymentLedger,
  type SavedCard,
  type SavedCardBook,
} from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import { adminHeaders } from "../support/admin-auth"
import { CVV_AS_SENT } from "../support/known-secrets"
import { simulatorForSuite } from "../support/simulator"
import { ADDRESS, eventually, NEXI_CARD_PROVIDER, seedEuroShop, storeHeaders } from "../support/store"
import { nexiProviderOptions } from "../support/store-config"
import { suiteOutput } from "../support/suite-output"

jest.setTimeout(180_000)

const VISA = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const MASTERCARD = { pan: "5593497948332903", expiryDate: "1230", cvv: "399" }
const DECLINED = { pan: "5515931855858729", expiryDate: "1230", cvv: "123" }
const ALL_STATES: SavedCard["state"][] = ["pending", "active", "failed", "unsupported", "deleted"]
/** The product's price at the gateway: 19.99 EUR. */
const PRICE_MINOR = "1999"
/** The storefront's origin, that of the resultUrl option: where a verification may send the shopper back. */
const STOREFRONT = new URL(String(nexiProviderOptions().resultUrl)).origin

type Answer = { status: number; body: any }
type Headers = { headers: Record<string, string> }
type Card = { pan: string; expiryDate: string; cvv: string }

interface Customer {
  id: string
  email: string
  /** The customer's bearer token and the publishable key, as a storefront sends them. */
  auth: Headers
}

interface Contract {
  contractId: string
  customerId: string
  contractType: string
  circuit: string
  maskedPan: string
  state: string
}

const simulator = simulatorForSuite()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let publishableKey: string
    let regionId: string
    let variantId: string

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      ;({ publishableKey, regionId, variantId } = await seedEuroShop(container))
    })

    /** Any answer, refusals included, as status and body. */
    function send(request: Promise<{ status: number; data: unknown }>): Promise<Answer> {
      return request.then(
        (answer) => ({ status: answer.status, body: answer.data }),
        (error: { response?: { status: number; data: unknown } }) => {
          if (!error.response) throw error
          return { status: error.response.status, body: error.response.data }
        },
      )
    }

    const guest = (): Headers => storeHeaders(publishableKey)
    const book = () => container.resolve<SavedCardBook>(NEXI_LEDGER_MODULE)

    /** Registers through Medusa's auth routes and POST /store/customers, then logs in, as a storefront does. */
    async function registerCustomer(name: string): Promise<Customer> {
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
        id: created.customer.id,
        email,
        auth: { headers: { authorization: `Bearer ${login.token}`, "x-publishable-api-key": publishableKey } },
      }
    }

    /** A cart with one 19.99 EUR line and addresses; the customer's when one is given. */
    async function openCart(customer?: Customer) {
      const { data } = await api.post(
        "/store/carts",
        {
          region_id: regionId,
          email: customer?.email ?? `guest-${randomUUID().slice(0, 8)}@example.com`,
          items: [{ variant_id: variantId, quantity: 1 }],
          shipping_address: ADDRESS,
          billing_address: ADDRESS,
        },
        customer?.auth ?? guest(),
      )
      return data.cart as { id: string; customer_id: string | null }
    }

    /** POST /store/payment-collections/:id/payment-sessions for the card provider; a refusal is returned. */
    async function requestCardSession(
      cartId: string,
      headers: Headers,
      data?: Record<string, unknown>,
    ): Promise<Answer> {
      const { data: collection } = await api.post("/store/payment-collections", { cart_id: cartId }, headers)
      return send(
        api.post(
          `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
          { provider_id: NEXI_CARD_PROVIDER, ...(data ? { data } : {}) },
          headers,
        ),
      )
    }

    async function startCardSession(cartId: string, headers: Headers, data?: Record<string, unknown>) {
      const answer = await requestCardSession(cartId, headers, data)
      if (answer.status !== 200)
        throw new Error(`the card session was refused (${answer.status}): ${JSON.stringify(answer.body)}`)
      const session = answer.body.payment_collection.payment_sessions.find(
        (candidate: { provider_id: string }) => candidate.provider_id === NEXI_CARD_PROVIDER,
      )
      return { answer, session: session as { id: string; status: string; data: Record<string, any> } }
    }

    /** The shopper on the hosted page, through the simulator's control API (the page's own code). */
    function pay(orderId: string, entry: Partial<Card>, awaitNotification = true) {
      return simulator.control<{ result: string; redirectUrl: string | null }>("POST", `/hpp/${orderId}/pay`, {
        ...entry,
        awaitNotification,
      })
    }

    function complete(cartId: string, headers: Headers): Promise<Answer> {
      return send(api.post(`/store/carts/${cartId}/complete`, {}, headers))
    }

    async function hostedPage(url: string): Promise<string> {
      const answer = await fetch(url)
      expect(answer.status).toBe(200)
      return answer.text()
    }

    /** The gateway order id of a hosted page link (…/hpp/{orderId}?token=…). */
    const orderIdOfPage = (url: string) => new URL(url).pathname.split("/").at(-1)!

    const gatewayOrder = (orderId: string) =>
      simulator.gateway<{ orderStatus: any; operations: Array<Record<string, any>> }>(`/orders/${orderId}`)

    async function contracts(customerRef?: string): Promise<Contract[]> {
      const query = customerRef === undefined ? "" : `?customerId=${encodeURIComponent(customerRef)}`
      return (await simulator.control<{ contracts: Contract[] }>("GET", `/contracts${query}`)).contracts
    }

    const listCards = (customer: Customer) => send(api.get("/store/nexi/saved-cards", customer.auth))

    /** Every saved card of the customer in the plugin's module, any state, newest first. */
    const cardsOnRecord = (customer: Customer) =>
      book().savedCards({ customerId: customer.id, states: ALL_STATES, limit: 50 })

    async function ordersOfCart(cartId: string): Promise<string[]> {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
      return data.map((row: { order_id: string }) => row.order_id)
    }

    const sessionOf = async (sessionId: string) =>
      (await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId }))[0]

    /** A checkout that saves the card: session with save_card, paid on the hosted page, cart completed. */
    async function saveCardAtCheckout(customer: Customer, card: Card = VISA) {
      const cart = await openCart(customer)
      const { answer, session } = await startCardSession(cart.id, customer.auth, { save_card: true })
      expect((await pay(session.data.order_id, card)).result).toBe("AUTHORIZED")
      const completed = await complete(cart.id, customer.auth)
      expect(completed.body.type).toBe("order")
      const [saved] = await cardsOnRecord(customer)
      return { cart, answer, session, order: completed.body.order, saved }
    }

    /** Saving a card from the account page: POST /store/nexi/saved-cards, the VERIFY page paid. */
    async function saveCardWithoutPaying(customer: Customer, card: Card = MASTERCARD) {
      const started = await send(api.post("/store/nexi/saved-cards", { currency_code: "eur" }, customer.auth))
      expect(started.status).toBe(201)
      const orderId = orderIdOfPage(started.body.hosted_page)
      expect((await pay(orderId, card)).result).toBe("EXECUTED")
      return { id: started.body.saved_card.id as string, orderId, started }
    }

    /** The ids of a GET /store/nexi/saved-cards answer, in its order. */
    const cardIds = (answer: Answer) => (answer.body.saved_cards as Array<{ id: string }>).map((card) => card.id)

    it("saves the card of a logged-in customer's checkout and lists it with circuit and masked number, never the contract id", async () => {
      const customer = await registerCustomer("giulia")
      const cart = await openCart(customer)
      expect(cart.customer_id).toBe(customer.id)
      const { answer, session } = await startCardSession(cart.id, customer.auth, { save_card: true })
      expect(session.data.save_card).toBe(true)
      expect(session.data).not.toHaveProperty("payment_method_id")
      // The gateway was asked to create a contract: its page tells the shopper the card will be saved.
      expect(await hostedPage(session.data.hosted_page)).toContain('data-testid="save-notice"')

      const [pending] = await cardsOnRecord(customer)
      expect(pending).toMatchObject({
        state: "pending",
        purpose: "checkout",
        gateway_ref: session.data.order_id,
        customer_id: customer.id,
      })
      // The gateway knows the customer by the account holder's random reference, not Medusa's id or e-mail.
      const created = await gatewayOrder(session.data.order_id)
      expect(created.orderStatus.order.customerId).toBe(pending.customer_ref)
      expect(pending.customer_ref).toMatch(/^nxc[0-9a-f]+$/)
      // Pending until the payment is authorized.
      expect((await listCards(customer)).body).toEqual({ saved_cards: [] })

      expect((await pay(session.data.order_id, VISA)).result).toBe("AUTHORIZED")
      const completed = await complete(cart.id, customer.auth)
      expect(completed.body.type).toBe("order")

      const listed = await listCards(customer)
      expect(listed.status).toBe(200)
      expect(listed.body.saved_cards).toEqual([
        {
          id: pending.id,
          circuit: "VISA",
          masked_pan: "***7289",
          expiry: null,
          // Saved without consent to merchant charges: a CIT contract, paid only by the customer.
          allows_merchant_charges: false,
          created_at: expect.any(String),
          provider_id: NEXI_CARD_PROVIDER,
        },
      ])
      expect(new Date(listed.body.saved_cards[0].created_at).toISOString()).toBe(listed.body.saved_cards[0].created_at)

      const [active] = await cardsOnRecord(customer)
      expect(active).toMatchObject({ id: pending.id, state: "active", circuit: "VISA", masked_pan: "***7289" })
      expect(active.activated_at).not.toBeNull()
      expect(await contracts(active.customer_ref)).toEqual([
        expect.objectContaining({
          contractId: active.contract_id,
          contractType: "CIT",
          circuit: "VISA",
          maskedPan: "***7289",
          state: "active",
        }),
      ])

      // What a storefront reads: the session as created, the cart's sessions after the order, the order, the list.
      const cartView = await api.get(
        `/store/carts/${cart.id}?fields=*payment_collection,*payment_collection.payment_sessions`,
        customer.auth,
      )
      const readSession = cartView.data.cart.payment_collection.payment_sessions.find(
        (candidate: { id: string }) => candidate.id === session.id,
      )
      expect(readSession.data.save_card).toBe(true)
      const orderView = await api.get(
        `/store/orders/${completed.body.order.id}?fields=*payment_collections,*payment_collections.payments`,
        customer.auth,
      )
      for (const read of [answer.body, cartView.data, orderView.data, completed.body, listed.body]) {
        const text = JSON.stringify(read)
        expect(text).not.toContain(active.contract_id)
        expect(text).not.toMatch(/contract/i)
      }
    })

    it("pays a second order one-click with the saved card: CVV only, SUBSEQUENT_PAYMENT on the same contract", async () => {
      const customer = await registerCustomer("marco")
      const first = await saveCardAtCheckout(customer, VISA)
      const mastercard = await saveCardWithoutPaying(customer, MASTERCARD)
      const listed = await listCards(customer)
      expect(listed.body.saved_cards.map((card: { masked_pan: string }) => card.masked_pan).sort()).toEqual([
        "***2903",
        "***7289",
      ])
      const records = await cardsOnRecord(customer)
      const visaRecord = records.find((card) => card.id === first.saved.id)!
      const before = await contracts(visaRecord.customer_ref)
      expect(before).toHaveLength(2)

      const cart = await openCart(customer)
      const { answer, session } = await startCardSession(cart.id, customer.auth, { payment_method_id: first.saved.id })
      expect(session.data).toMatchObject({
        payment_method_id: first.saved.id,
        saved_card: { circuit: "VISA", masked_pan: "***7289" },
      })
      expect(session.data).not.toHaveProperty("save_card")
      expect(JSON.stringify(answer.body)).not.toContain(visaRecord.contract_id)
      // The page the gateway built for the order: the saved card of the contract the plugin named, only its CVV asked.
      const page = await hostedPage(session.data.hosted_page)
      // The cart ships to Italy and the request names no language: the page speaks Italian.
      expect(page).toContain("Paga con la carta salvata")
      expect(page).toMatch(/data-testid="saved-card">VISA •••• 7289</)
      expect(page).not.toContain('id="pan"')
      expect(page).not.toContain('data-testid="save-notice"')

      // A number sent with a one-click payment is refused by the gateway: the order pays with the contract's card.
      await expect(pay(session.data.order_id, VISA)).rejects.toThrow(/pan: must not be sent/)
      expect((await pay(session.data.order_id, { cvv: VISA.cvv })).result).toBe("AUTHORIZED")
      const completed = await complete(cart.id, customer.auth)
      expect(completed.body.type).toBe("order")
      expect(completed.body.order.id).not.toBe(first.order.id)

      const paid = await gatewayOrder(session.data.order_id)
      expect(paid.orderStatus.order).toMatchObject({ amount: PRICE_MINOR, customerId: visaRecord.customer_ref })
      const authorization = paid.operations.find(
        (operation) => operation.operationType === "AUTHORIZATION" && operation.operationResult === "AUTHORIZED",
      )
      expect(authorization).toMatchObject({
        paymentCircuit: "VISA",
        paymentInstrumentInfo: "***7289",
        operationAmount: PRICE_MINOR,
      })
      // No new contract and no new card: the one-click order used the existing contract.
      expect(await contracts(visaRecord.customer_ref)).toEqual(before)
      expect((await cardsOnRecord(customer)).map((card) => card.id).sort()).toEqual(
        records.map((card) => card.id).sort(),
      )
      expect((await listCards(customer)).body).toEqual(listed.body)

      // The other saved card names the other contract: its page shows the MasterCard.
      const other = await openCart(customer)
      const withMc = await startCardSession(other.id, customer.auth, { payment_method_id: mastercard.id })
      expect(withMc.session.data.saved_card).toEqual({ circuit: "MC", masked_pan: "***2903" })
      expect(await hostedPage(withMc.session.data.hosted_page)).toMatch(/data-testid="saved-card">MC •••• 2903</)
    })

    it("opens the add-a-card page in the browser's language when the storefront names none", async () => {
      const customer = await registerCustomer("jonas")
      const headers = { ...customer.auth.headers, "accept-language": "de-DE,de;q=0.9,en;q=0.5" }
      const started = await send(api.post("/store/nexi/saved-cards", { currency_code: "eur" }, { headers }))
      expect(started.status).toBe(201)
      expect(await hostedPage(started.body.hosted_page)).toMatch(/<html lang="de" data-language="deu">/)
    })

    it("saves a card without paying: a VERIFY page that charges 0, listed once the gateway confirms it", async () => {
      const customer = await registerCustomer("lucia")
      // Input the provider cannot take is refused naming the field, before any hosted order is opened.
      const offSite = await send(
        api.post(
          "/store/nexi/saved-cards",
          { currency_code: "eur", return_url: "https://evil.example/account" },
          customer.auth,
        ),
      )
      expect(offSite.status).toBe(400)
      expect(offSite.body.message).toBe(
        `return_url: must be a page of the storefront (${STOREFRONT}), the origin of the resultUrl option.`,
      )
      const unknownCurrency = await send(api.post("/store/nexi/saved-cards", { currency_code: "xxq" }, customer.auth))
      expect(unknownCurrency.status).toBe(400)
      expect(unknownCurrency.body.message).toMatch(/^currency_code: /)
      expect(await cardsOnRecord(customer)).toEqual([])
      expect(
        (await simulator.control<{ requests: Array<{ path: string }> }>("GET", "/requests")).requests.filter(
          (request) => request.path.endsWith("/orders/hpp"),
        ),
      ).toEqual([])
      // The gateway is down: the shopper is told so (not "An unknown error occurred."), and no card waits.
      await simulator.control("POST", "/faults", {
        match: { path: "/api/phoenix-0.0/psp/api/v1/orders/hpp" },
        action: { type: "status", status: 503 },
      })
      const down = await send(api.post("/store/nexi/saved-cards", { currency_code: "eur" }, customer.auth))
      await simulator.control("DELETE", "/faults")
      expect(down.status).toBe(500)
      expect(down.body.message).toMatch(/^Could not save the card: The Nexi gateway is unavailable/)
      expect((await cardsOnRecord(customer)).map((card) => card.state)).toEqual(["failed"])
      expect((await listCards(customer)).body).toEqual({ saved_cards: [] })

      const unknownLanguage = await send(
        api.post("/store/nexi/saved-cards", { currency_code: "eur", language: "italiano" }, customer.auth),
      )
      expect(unknownLanguage.status).toBe(400)
      expect(unknownLanguage.body.message).toMatch(/^language: must be a language tag/)
      expect(await cardsOnRecord(customer)).toHaveLength(1)

      const started = await send(
        api.post(
          "/store/nexi/saved-cards",
          { currency_code: "eur", return_url: `${STOREFRONT}/account/cards`, language: "it-IT" },
          customer.auth,
        ),
      )
      expect(started.status).toBe(201)
      expect(started.body).toEqual({
        saved_card: { id: expect.any(String), state: "pending", provider_id: NEXI_CARD_PROVIDER },
        hosted_page: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hpp\//),
      })
      const cardId = started.body.saved_card.id
      const orderId = orderIdOfPage(started.body.hosted_page)
      const page = await hostedPage(started.body.hosted_page)
      // No cart to take a country from: the page speaks the storefront's language.
      expect(page).toMatch(/<html lang="it" data-language="ita">/)
      expect(page).toContain("Nessun addebito")
      expect(page).toContain('data-testid="save-notice"')
      const created = await gatewayOrder(orderId)
      expect(created.orderStatus.order).toMatchObject({ amount: "0", currency: "EUR" })
      // Not paid yet: the listing reads the order and still finds nothing to confirm.
      expect((await listCards(customer)).body).toEqual({ saved_cards: [] })
      expect((await cardsOnRecord(customer))[0]).toMatchObject({ id: cardId, state: "pending", purpose: "verify" })

      // The shopper verifies the card; the notification is lost, so the listing confirms it.
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      const verified = await pay(orderId, MASTERCARD)
      expect(verified).toMatchObject({ result: "EXECUTED", redirectUrl: `${STOREFRONT}/account/cards` })
      expect((await listCards(customer)).body.saved_cards).toEqual([
        {
          id: cardId,
          circuit: "MC",
          masked_pan: "***2903",
          expiry: null,
          // Saved without consent to merchant charges: a CIT contract, paid only by the customer.
          allows_merchant_charges: false,
          created_at: expect.any(String),
          provider_id: NEXI_CARD_PROVIDER,
        },
      ])
      const charged = await gatewayOrder(orderId)
      expect(charged.orderStatus).toMatchObject({ authorizedAmount: "0", capturedAmount: "0" })
      expect(charged.orderStatus.order.amount).toBe("0")
      for (const operation of charged.operations) expect(operation.operationAmount).toBe("0")
      expect(
        charged.operations.some(
          (operation) => operation.operationType === "AUTHORIZATION" && operation.operationResult === "EXECUTED",
        ),
      ).toBe(true)
      const [record] = await cardsOnRecord(customer)
      expect(await contracts(record.customer_ref)).toEqual([
        expect.objectContaining({ contractId: record.contract_id, circuit: "MC", maskedPan: "***2903" }),
      ])
      expect(JSON.stringify(started.body)).not.toContain(record.contract_id)

      // A second card, added with consent to merchant charges and confirmed by its notification
      // alone (nobody reads the list meanwhile).
      const badConsent = await send(
        api.post("/store/nexi/saved-cards", { currency_code: "eur", allow_merchant_charges: "yes" }, customer.auth),
      )
      expect(badConsent.status).toBe(400)
      expect(badConsent.body.message).toMatch(/^allow_merchant_charges: must be true or false/)
      const second = await send(
        api.post("/store/nexi/saved-cards", { currency_code: "eur", allow_merchant_charges: true }, customer.auth),
      )
      const secondOrder = orderIdOfPage(second.body.hosted_page)
      expect((await pay(secondOrder, VISA)).redirectUrl).toBe(`${STOREFRONT}/`)
      await eventually(async () =>
        (await book().findSavedCard(second.body.saved_card.id))?.state === "active" ? true : undefined,
      )
      expect(
        (await listCards(customer)).body.saved_cards.map((card: { id: string; allows_merchant_charges: boolean }) => [
          card.id,
          card.allows_merchant_charges,
        ]),
      ).toEqual([
        [second.body.saved_card.id, true],
        [cardId, false],
      ])
      const secondRecord = await book().findSavedCard(second.body.saved_card.id)
      expect(secondRecord?.contract_type).toBe("MIT_UNSCHEDULED")
      expect(
        (await contracts(record.customer_ref)).find((contract) => contract.contractId === secondRecord?.contract_id),
      ).toMatchObject({ contractType: "MIT_UNSCHEDULED" })
    })

    it("deletes a saved card: gone from the list, and a session paying with it is refused as deleted", async () => {
      const customer = await registerCustomer("paolo")
      const { id } = await saveCardWithoutPaying(customer)
      expect(cardIds(await listCards(customer))).toEqual([id])

      const deleted = await send(api.delete(`/store/nexi/saved-cards/${id}`, customer.auth))
      expect(deleted).toEqual({ status: 200, body: { id, object: "saved_card", deleted: true } })
      expect((await listCards(customer)).body).toEqual({ saved_cards: [] })
      expect((await book().findSavedCard(id))?.state).toBe("deleted")

      const cart = await openCart(customer)
      const refused = await requestCardSession(cart.id, customer.auth, { payment_method_id: id })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toBe(
        `payment_method_id: the saved card ${id} was deleted. Choose another card or enter a new one.`,
      )
      expect(await ordersOfCart(cart.id)).toEqual([])
      // Deleting it again: it is no longer the customer's.
      expect((await send(api.delete(`/store/nexi/saved-cards/${id}`, customer.auth))).status).toBe(404)
      // The same cart still pays with a new card.
      const { session } = await startCardSession(cart.id, customer.auth)
      await pay(session.data.order_id, VISA)
      expect((await complete(cart.id, customer.auth)).body.type).toBe("order")
    })

    describe("a deleted card's contract at the gateway", () => {
      const DEACTIVATION_PATH = "/api/phoenix-0.0/psp/api/v1/contracts/*/deactivation"

      async function deactivationsSent(contractId: string): Promise<number> {
        const { counts } = await simulator.control<{ counts: Record<string, number> }>("GET", "/requests")
        return counts[`POST /api/phoenix-0.0/psp/api/v1/contracts/${contractId}/deactivation`] ?? 0
      }

      /** The ledger's record of the card's deactivation (its gateway_ref is the contract id). */
      async function deactivationOf(card: SavedCard) {
        const writes = await container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE).writesOf(card.contract_id)
        return writes.filter((write) => write.kind === "contract_deactivation")
      }

      async function staffView(customer: Customer, cardId: string) {
        const staff = await adminHeaders(container, api)
        const answer = await send(api.get(`/admin/nexi/customers/${customer.id}/saved-cards`, staff))
        return answer.body.saved_cards.find((card: { id: string }) => card.id === cardId)
      }

      /** A customer's saved card deleted while the gateway answers its deactivation 503 (the fault stays). */
      async function deletedWhileGatewayDown(name: string) {
        const customer = await registerCustomer(name)
        const { id } = await saveCardWithoutPaying(customer)
        const card = (await book().findSavedCard(id))!
        await simulator.control("POST", "/faults", {
          match: { method: "POST", path: DEACTIVATION_PATH },
          action: { type: "status", status: 503 },
        })
        expect((await send(api.delete(`/store/nexi/saved-cards/${id}`, customer.auth))).status).toBe(200)
        return { customer, id, card }
      }

      /** The reconciliation job's run, past the two minutes after which a write cut off is retried. */
      const runJob = () => reconcilePendingSessions(container, new Date(Date.now() + 3 * 60_000))

      it("is deactivated once when the customer deletes the card", async () => {
        const customer = await registerCustomer("bianca")
        const { id } = await saveCardWithoutPaying(customer)
        const card = (await book().findSavedCard(id))!
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["active"])

        expect((await send(api.delete(`/store/nexi/saved-cards/${id}`, customer.auth))).status).toBe(200)
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["deactivated"])
        expect(await deactivationsSent(card.contract_id)).toBe(1)
        expect(await deactivationOf(card)).toEqual([
          expect.objectContaining({ outcome: "executed", medusa_ref: id, idempotency_key: `${id}:deactivation` }),
        ])
        expect((await staffView(customer, id)).gateway_end).toEqual({ state: "ended", message: null })
        // The job has nothing left to send.
        expect((await runJob()).contractEnds).toBeUndefined()
        expect(await deactivationsSent(card.contract_id)).toBe(1)
      })

      it("is deactivated by the job when the answer is lost, and the shopper's delete stands", async () => {
        const customer = await registerCustomer("carla")
        const { id } = await saveCardWithoutPaying(customer)
        const card = (await book().findSavedCard(id))!
        // The gateway makes the deactivation and every answer is lost: the transport's retries and the recovery's.
        await simulator.control("POST", "/faults", {
          match: { method: "POST", path: DEACTIVATION_PATH },
          phase: "after",
          action: { type: "reset" },
        })
        const deleted = await send(api.delete(`/store/nexi/saved-cards/${id}`, customer.auth))
        expect(deleted).toEqual({ status: 200, body: { id, object: "saved_card", deleted: true } })
        expect((await listCards(customer)).body).toEqual({ saved_cards: [] })
        expect((await deactivationOf(card)).map((write) => write.outcome)).toEqual(["unknown"])
        expect((await staffView(customer, id)).gateway_end).toMatchObject({ state: "pending" })
        expect(suiteOutput().textSince(0)).toContain(`the contract of deleted saved card ${id} is not ended`)

        await simulator.control("DELETE", "/faults")
        const sentBefore = await deactivationsSent(card.contract_id)
        expect((await runJob()).contractEnds).toEqual({ ended: 1, pending: 0 })
        expect(await deactivationsSent(card.contract_id)).toBe(sentBefore + 1)
        expect((await deactivationOf(card)).map((write) => write.outcome)).toEqual(["executed"])
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["deactivated"])
        expect((await staffView(customer, id)).gateway_end).toEqual({ state: "ended", message: null })
      })

      it("is deactivated by the job when the gateway was down at the delete", async () => {
        const { customer, card } = await deletedWhileGatewayDown("dario")
        // Hidden from the store at once, alive at the gateway until the job ends it.
        expect((await listCards(customer)).body).toEqual({ saved_cards: [] })
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["active"])
        expect((await runJob()).contractEnds).toEqual({ ended: 0, pending: 1 })
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["active"])

        await simulator.control("DELETE", "/faults")
        expect((await runJob()).contractEnds).toEqual({ ended: 1, pending: 0 })
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["deactivated"])
        expect((await deactivationOf(card)).map((write) => write.outcome)).toEqual(["executed"])
      })

      it("is sent again ever more rarely while the gateway keeps failing it", async () => {
        const { id, card } = await deletedWhileGatewayDown("elena")
        // Recorded 21 minutes ago and last tried a minute ago: it waits 20 minutes since that try.
        const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)
        await container
          .resolve(ContainerRegistrationKeys.PG_CONNECTION)("nexi_money_write")
          .where({ idempotency_key: `${id}:deactivation` })
          .update({ created_at: minutesAgo(21), updated_at: minutesAgo(1) })
        const sent = await deactivationsSent(card.contract_id)
        const runAt = (minutesFromNow: number) =>
          reconcilePendingSessions(container, new Date(Date.now() + minutesFromNow * 60_000))

        await runAt(18)
        expect(await deactivationsSent(card.contract_id)).toBe(sent)
        await runAt(20)
        expect(await deactivationsSent(card.contract_id)).toBe(sent + 1)
        // Tried just now after 21 minutes of waiting: the next try waits about as long.
        await runAt(15)
        expect(await deactivationsSent(card.contract_id)).toBe(sent + 1)
        await simulator.control("DELETE", "/faults")
        await runAt(25)
        expect(await deactivationsSent(card.contract_id)).toBe(sent + 2)
        expect((await contracts(card.customer_ref)).map((contract) => contract.state)).toEqual(["deactivated"])
      })
    })

    it("refuses another customer's card with the words of an unknown id, and answers their DELETE 404", async () => {
      const owner = await registerCustomer("anna")
      const { id } = await saveCardWithoutPaying(owner)
      const intruder = await registerCustomer("bruno")
      const cart = await openCart(intruder)

      const theirs = await requestCardSession(cart.id, intruder.auth, { payment_method_id: id })
      const unknownId = "nexcard_01NOSUCHCARD000000000000"
      const unknown = await requestCardSession(cart.id, intruder.auth, { payment_method_id: unknownId })
      expect(theirs.status).toBe(400)
      expect(theirs.body.message).toBe(`payment_method_id: there is no saved card ${id} for this customer.`)
      expect(unknown.status).toBe(400)
      expect(unknown.body.message).toBe(`payment_method_id: there is no saved card ${unknownId} for this customer.`)
      expect({ ...theirs.body, message: theirs.body.message.replace(id, "ID") }).toEqual({
        ...unknown.body,
        message: unknown.body.message.replace(unknownId, "ID"),
      })

      const deleteTheirs = await send(api.delete(`/store/nexi/saved-cards/${id}`, intruder.auth))
      const deleteUnknown = await send(api.delete(`/store/nexi/saved-cards/${unknownId}`, intruder.auth))
      expect(deleteTheirs.status).toBe(404)
      expect(deleteUnknown.status).toBe(404)
      expect(deleteTheirs.body.message.replace(id, "ID")).toBe(deleteUnknown.body.message.replace(unknownId, "ID"))

      expect((await listCards(intruder)).body).toEqual({ saved_cards: [] })
      expect(cardIds(await listCards(owner))).toEqual([id])
      expect((await book().findSavedCard(id))?.state).toBe("active")
      expect(await ordersOfCart(cart.id)).toEqual([])
    })

    it("leaves guest checkout as it was and refuses a guest's save_card with 400 naming save_card", async () => {
      const cart = await openCart()
      const save = await requestCardSession(cart.id, guest(), { save_card: true })
      expect(save.status).toBe(400)
      expect(save.body.message).toMatch(/^save_card: only a logged-in customer can save a card/)
      const payWith = await requestCardSession(cart.id, guest(), {
        payment_method_id: "nexcard_01NOSUCHCARD000000000000",
      })
      expect(payWith.status).toBe(400)
      expect(payWith.body.message).toMatch(/^payment_method_id: only a logged-in customer/)
      expect((await send(api.get("/store/nexi/saved-cards", guest()))).status).toBe(401)
      expect((await send(api.post("/store/nexi/saved-cards", { currency_code: "eur" }, guest()))).status).toBe(401)

      const { session } = await startCardSession(cart.id, guest())
      expect(session.data).not.toHaveProperty("save_card")
      expect(await hostedPage(session.data.hosted_page)).not.toContain('data-testid="save-notice"')
      expect((await pay(session.data.order_id, VISA)).result).toBe("AUTHORIZED")
      const completed = await complete(cart.id, guest())
      expect(completed.body.type).toBe("order")
      expect(await contracts()).toEqual([])
      expect(await book().savedCards({ states: ALL_STATES, limit: 10 })).toEqual([])
    })

    it("saves nothing when the card of a save_card checkout is declined", async () => {
      const customer = await registerCustomer("sara")
      const cart = await openCart(customer)
      const { session } = await startCardSession(cart.id, customer.auth, { save_card: true })
      expect((await pay(session.data.order_id, DECLINED)).result).toBe("DECLINED")
      await eventually(async () => ((await sessionOf(session.id)).status === "error" ? true : undefined))
      // The decline's notification ends the card: Medusa never authorizes a declined session.
      const record = await eventually(async () => {
        const [card] = await cardsOnRecord(customer)
        return card.state === "failed" ? card : undefined
      })
      expect(record).toMatchObject({ circuit: null, masked_pan: null, activated_at: null })
      expect(await contracts(record.customer_ref)).toEqual([])
      expect((await listCards(customer)).body).toEqual({ saved_cards: [] })

      const refused = await complete(cart.id, customer.auth)
      expect(refused.body.type).not.toBe("order")
      expect(await ordersOfCart(cart.id)).toEqual([])
      expect((await cardsOnRecord(customer)).map((card) => card.state)).toEqual(["failed"])

      // The shopper pays again on the same cart, saving the card: only this one is saved.
      const retry = await startCardSession(cart.id, customer.auth, { save_card: true })
      await pay(retry.session.data.order_id, VISA)
      expect((await complete(cart.id, customer.auth)).body.type).toBe("order")
      expect((await listCards(customer)).body.saved_cards).toEqual([expect.objectContaining({ masked_pan: "***7289" })])
      expect((await cardsOnRecord(customer)).map((card) => card.state).sort()).toEqual(["active", "failed"])
    })

    it("verifies a saved-card payment's notification like any other: a forged token changes nothing, the genuine one completes the cart", async () => {
      const customer = await registerCustomer("elena")
      // The save_card checkout completed by its notification alone: the card is saved too.
      const firstCart = await openCart(customer)
      const saving = await startCardSession(firstCart.id, customer.auth, { save_card: true })
      await pay(saving.session.data.order_id, VISA)
      await eventually(async () => ((await ordersOfCart(firstCart.id)).length ? true : undefined))
      const [saved] = (await eventually(async () => {
        const listed = (await listCards(customer)).body.saved_cards
        return listed.length ? listed : undefined
      })) as Array<{ id: string; masked_pan: string }>
      expect(saved.masked_pan).toBe("***7289")

      // A one-click payment whose notification the gateway loses; a forger posts one with a false token.
      const cart = await openCart(customer)
      const { session } = await startCardSession(cart.id, customer.auth, { payment_method_id: saved.id })
      const orderId = session.data.order_id
      await simulator.control("POST", "/faults/notifications", { drop: 1 })
      expect((await pay(orderId, { cvv: VISA.cvv }, false)).result).toBe("AUTHORIZED")
      const { notifications } = await simulator.control<{ notifications: Array<{ body: any }> }>(
        "GET",
        "/notifications",
      )
      const genuine = notifications.find((notification) => notification.body.operation.orderId === orderId)!.body
      const output = suiteOutput()
      const mark = output.chunks().length
      const forged = { ...genuine, eventId: randomUUID(), securityToken: `forged-${randomUUID()}` }
      expect((await api.post("/hooks/payment/nexi_nexi", forged)).status).toBe(200)
      await eventually(async () =>
        output
          .textSince(mark)
          .includes(`ignored a notification for order ${orderId} whose security token does not match`)
          ? true
          : undefined,
      )
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(await ordersOfCart(cart.id)).toEqual([])
      expect((await sessionOf(session.id)).status).toBe("pending")

      expect((await api.post("/hooks/payment/nexi_nexi", genuine)).status).toBe(200)
      // Medusa's cart completion links the order to the cart before it authorizes the session,
      // each step committed on its own: the cart is complete once the session is authorized too.
      const [orderOfCart] = await eventually(async () => {
        const orders = await ordersOfCart(cart.id)
        return orders.length && (await sessionOf(session.id)).status === "authorized" ? orders : undefined
      })
      // The shopper comes back after the notification: the same order.
      expect((await complete(cart.id, customer.auth)).body.order.id).toBe(orderOfCart)
      expect(cardIds(await listCards(customer))).toEqual([saved.id])
    })

    it("lists a customer's cards in every state on the admin route, without contract ids", async () => {
      const customer = await registerCustomer("franca")
      const other = await registerCustomer("gino")
      const checkout = await saveCardAtCheckout(customer, VISA)
      const removed = await saveCardWithoutPaying(customer, MASTERCARD)
      expect((await send(api.delete(`/store/nexi/saved-cards/${removed.id}`, customer.auth))).status).toBe(200)
      const waiting = await send(api.post("/store/nexi/saved-cards", { currency_code: "eur" }, customer.auth))
      await saveCardWithoutPaying(other, VISA)

      const staff = await adminHeaders(container, api)
      expect((await send(api.get(`/admin/nexi/customers/${customer.id}/saved-cards`))).status).toBe(401)
      const answer = await send(api.get(`/admin/nexi/customers/${customer.id}/saved-cards`, staff))
      expect(answer.status).toBe(200)
      const byId = new Map<string, Record<string, unknown>>(
        answer.body.saved_cards.map((card: { id: string }) => [card.id, card]),
      )
      expect(byId.size).toBe(3)
      expect(byId.get(checkout.saved.id)).toMatchObject({
        state: "active",
        circuit: "VISA",
        masked_pan: "***7289",
        saved_while: "checkout",
        allows_merchant_charges: false,
        removed_at: null,
      })
      expect(byId.get(removed.id)).toMatchObject({
        state: "deleted",
        circuit: "MC",
        masked_pan: "***2903",
        saved_while: "verify",
        removed_at: expect.any(String),
      })
      expect(byId.get(waiting.body.saved_card.id)).toMatchObject({
        state: "pending",
        circuit: null,
        masked_pan: null,
        saved_while: "verify",
      })
      for (const record of await cardsOnRecord(customer))
        expect(JSON.stringify(answer.body)).not.toContain(record.contract_id)
      expect(JSON.stringify(answer.body)).not.toMatch(/contract|customer_ref|nxc[0-9a-f]/)
      expect((await send(api.get(`/admin/nexi/customers/cus_nosuchcustomer/saved-cards`, staff))).body).toEqual({
        saved_cards: [],
      })
    })

    it("keeps card numbers, CVVs and security tokens out of everything this suite logged so far", async () => {
      // The guard (integration-tests/setup/secrets-guard.ts) checks the whole output after the last
      // test and fails the suite on a finding; this says so here too, after the saved-card flows above
      // (CVV-only payments, VERIFY pages, forged and genuine notifications) have all logged.
      const text = suiteOutput().textSince(0)
      expect(text).toMatch(/ignored a notification for order \w+ whose security token does not match/)
      for (const pan of [VISA.pan, MASTERCARD.pan, DECLINED.pan]) expect(text.includes(pan)).toBe(false)
      expect(text).not.toMatch(CVV_AS_SENT.pattern)
      const { securityTokens } = await simulator.control<{ securityTokens: string[] }>("GET", "/security-tokens")
      expect(securityTokens.length).toBeGreaterThan(5)
      for (const token of securityTokens) expect(text.includes(token)).toBe(false)
    })
  },
})

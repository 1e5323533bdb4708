/**
 * The hosted page's language on a real Medusa store, read where the shopper sees it: the
 * simulator's page carries the language its order was created with (`<html lang>` and the
 * gateway's code). The storefront's `data.language` wins, then the request's Accept-Language,
 * then the cart's shipping country as the server reads it, then the `language` option.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { CheckoutKit } from "../support/checkout-kit"
import { simulatorForSuite } from "../support/simulator"
import { createCart, NEXI_CARD_PROVIDER, storeHeaders } from "../support/store"

jest.setTimeout(180_000)

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"

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

    /** A cart of the kit's Italian region, shipping (and billing) to Italy. */
    async function italianCart(): Promise<{ cartId: string; collectionId: string }> {
      const cart = await createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
      expect(cart.shipping_address.country_code).toBe("it")
      const { data } = await api.post(
        "/store/payment-collections",
        { cart_id: cart.id },
        storeHeaders(kit.publishableKey),
      )
      return { cartId: cart.id, collectionId: data.payment_collection.id }
    }

    /** Creates a card session as a storefront would, with or without an Accept-Language header. */
    function createSession(collectionId: string, data: Record<string, unknown> | undefined, acceptLanguage?: string) {
      const headers = {
        ...storeHeaders(kit.publishableKey).headers,
        ...(acceptLanguage === undefined ? {} : { "accept-language": acceptLanguage }),
      }
      return api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: NEXI_CARD_PROVIDER, ...(data ? { data } : {}) },
        { headers },
      )
    }

    async function sessionOf(collectionId: string, data?: Record<string, unknown>, acceptLanguage?: string) {
      const { data: answer } = await createSession(collectionId, data, acceptLanguage)
      return answer.payment_collection.payment_sessions.find(
        (row: { provider_id: string }) => row.provider_id === NEXI_CARD_PROVIDER,
      ) as { id: string; data: Record<string, any> }
    }

    /** The language the gateway got, as its hosted page shows it: `<html lang data-language>`. */
    async function pageLanguage(hostedPage: string): Promise<{ lang?: string; code?: string; pay?: string }> {
      const html = await (await fetch(hostedPage)).text()
      const tag = /<html lang="([^"]*)" data-language="([^"]*)">/.exec(html)
      return { lang: tag?.[1], code: tag?.[2], pay: /id="pay">([^<]*)</.exec(html)?.[1] }
    }

    it("opens the page in Italian for a cart shipping to Italy when the request names no language", async () => {
      for (const acceptLanguage of [undefined, "*"]) {
        const { collectionId } = await italianCart()
        const session = await sessionOf(collectionId, undefined, acceptLanguage)
        await expect(pageLanguage(session.data.hosted_page)).resolves.toEqual({
          lang: "it",
          code: "ita",
          pay: "Paga 19.99 EUR",
        })
      }
    })

    it("takes Accept-Language over the cart's country, by its weights", async () => {
      const { collectionId } = await italianCart()
      const session = await sessionOf(collectionId, undefined, "it;q=0.4, en-GB;q=0.9, *;q=0.1")
      await expect(pageLanguage(session.data.hosted_page)).resolves.toMatchObject({ lang: "en", code: "eng" })
    })

    it("takes the storefront's language over Accept-Language", async () => {
      const { collectionId } = await italianCart()
      const session = await sessionOf(collectionId, { language: "de-CH" }, "en-GB,en;q=0.9")
      expect(session.data.language).toBe("deu")
      await expect(pageLanguage(session.data.hosted_page)).resolves.toMatchObject({ lang: "de", code: "deu" })
    })

    it("keeps the session's language for the new gateway order of an update, which has no headers or cart", async () => {
      for (const [data, acceptLanguage, code] of [
        [{ language: "fr" }, undefined, "fra"],
        [undefined, "es-ES", "spa"],
        [undefined, undefined, "ita"],
      ] as const) {
        const { collectionId } = await italianCart()
        const session = await sessionOf(collectionId, data, acceptLanguage)
        const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
        const updated = await payment.updatePaymentSession({
          id: session.id,
          amount: 29.99,
          currency_code: "eur",
          data: (await kit.session(session.id)).data as Record<string, unknown>,
        })
        expect(updated.data?.order_id).not.toBe(session.data.order_id)
        await expect(pageLanguage(String(updated.data?.hosted_page))).resolves.toMatchObject({ code })
      }
    })

    it("refuses a language it does not know with a 400 naming data.language, and changes nothing", async () => {
      const { collectionId } = await italianCart()
      const first = await sessionOf(collectionId, { language: "it" })
      const ordersBefore = await kit.requests("POST", `${GATEWAY}/orders/hpp`)

      const refusal = await createSession(collectionId, { language: "italiano" }).then(
        () => undefined,
        (error: { response: { status: number; data: { message: string } } }) => error.response,
      )
      expect(refusal?.status).toBe(400)
      expect(refusal?.data.message).toMatch(/^data\.language: "italiano" is no language/)

      // No new gateway order, and the session the shopper may have open is the same one.
      expect(await kit.requests("POST", `${GATEWAY}/orders/hpp`)).toHaveLength(ordersBefore.length)
      const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
      const sessions = await payment.listPaymentSessions({ payment_collection_id: collectionId })
      expect(sessions.map((row) => [row.id, row.data?.order_id])).toEqual([[first.id, first.data.order_id]])
    })
  },
})

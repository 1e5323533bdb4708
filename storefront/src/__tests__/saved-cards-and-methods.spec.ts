/** The saved-card and payment-method store routes. */
import { listPaymentMethods } from "../payment-methods.js"
import { deleteSavedCard, listSavedCards, startSavingCard } from "../saved-cards.js"
import { NexiInputError } from "../session-data.js"
import { BACKEND, calls, fakeFetch } from "./fake-fetch.js"

const card = {
  id: "nexcard_01",
  circuit: "VISA",
  masked_pan: "453997******4549",
  expiry: null,
  created_at: "2026-11-20T10:00:00.000Z",
  provider_id: "pp_nexi_nexi",
}

describe("listSavedCards", () => {
  it("reads the customer's cards with their authorization", async () => {
    const { client, requests } = fakeFetch([{ body: { saved_cards: [card] } }])
    expect(await listSavedCards(client, { headers: { authorization: "Bearer jwt" } })).toEqual([card])
    expect(calls(requests)).toEqual([`GET ${BACKEND}/store/nexi/saved-cards`])
    expect(requests[0].headers.authorization).toBe("Bearer jwt")
  })

  it("lets the 401 of a guest through", async () => {
    const { client } = fakeFetch([{ status: 401, body: { message: "Unauthorized" } }])
    await expect(listSavedCards(client)).rejects.toMatchObject({ status: 401 })
  })
})

describe("deleteSavedCard", () => {
  it("deletes the card by its id", async () => {
    const { client, requests } = fakeFetch([{ body: { id: "nexcard_01", object: "saved_card", deleted: true } }])
    await expect(deleteSavedCard(client, "nexcard_01")).resolves.toBeUndefined()
    expect(calls(requests)).toEqual([`DELETE ${BACKEND}/store/nexi/saved-cards/nexcard_01`])
  })

  it("escapes the id into the path, and lets another customer's card's 404 through", async () => {
    const { client, requests } = fakeFetch([{ status: 404, body: { message: "Saved card not found" } }])
    await expect(deleteSavedCard(client, "../carts/x")).rejects.toMatchObject({ status: 404 })
    expect(calls(requests)).toEqual([`DELETE ${BACKEND}/store/nexi/saved-cards/..%2Fcarts%2Fx`])
  })
})

describe("listPaymentMethods", () => {
  it("reads the region's Nexi methods with their logos", async () => {
    const methods = [
      {
        provider_id: "pp_nexi_nexi",
        kind: "card",
        name: "Card (Visa, Mastercard, Maestro, Amex)",
        logo_url: "data:image/svg+xml;utf8,%3Csvg%3E",
      },
      {
        provider_id: "pp_nexi-apm-psp-b_nexi",
        kind: "mobile",
        name: "Mobile payment B",
        logo_url: "https://cdn.shop.test/b.svg",
      },
    ]
    const { client, requests } = fakeFetch([{ body: { payment_methods: methods } }])
    expect(await listPaymentMethods(client, "reg_01")).toEqual(methods)
    expect(calls(requests)).toEqual([`GET ${BACKEND}/store/nexi/payment-methods?region_id=reg_01`])
  })
})

describe("startSavingCard", () => {
  const started = {
    saved_card: { id: "nexcard_9", state: "pending", provider_id: "pp_nexi_nexi" },
    hosted_page: "https://xpay.test/hpp/9",
  }

  it("asks for a verification page with the currency, the return page and the provider", async () => {
    const { client, requests } = fakeFetch([{ status: 201, body: started }])
    const answer = await startSavingCard(
      client,
      { currencyCode: "eur", returnUrl: "https://shop.test/account/cards", providerId: "pp_nexi_nexi" },
      { headers: { authorization: "Bearer jwt" } },
    )
    expect(answer).toEqual(started)
    expect(requests).toEqual([
      expect.objectContaining({
        method: "POST",
        url: `${BACKEND}/store/nexi/saved-cards`,
        body: { currency_code: "eur", return_url: "https://shop.test/account/cards", provider_id: "pp_nexi_nexi" },
      }),
    ])
    expect(requests[0].headers.authorization).toBe("Bearer jwt")
  })

  it("sends only the currency when the rest is left to the plugin", async () => {
    const { client, requests } = fakeFetch([{ status: 201, body: started }])
    await startSavingCard(client, { currencyCode: "EUR" })
    expect(requests[0].body).toEqual({ currency_code: "EUR" })
  })

  it("sends the customer's consent to merchant charges only when given, and refuses what is no boolean", async () => {
    const { client, requests } = fakeFetch([
      { status: 201, body: started },
      { status: 201, body: started },
    ])
    await startSavingCard(client, { currencyCode: "eur", allowMerchantCharges: true })
    await startSavingCard(client, { currencyCode: "eur", allowMerchantCharges: false })
    expect(requests.map((request) => request.body)).toEqual([
      { currency_code: "eur", allow_merchant_charges: true },
      { currency_code: "eur" },
    ])
    await expect(
      startSavingCard(client, { currencyCode: "eur", allowMerchantCharges: "yes" as unknown as boolean }),
    ).rejects.toThrow(new NexiInputError("allow_merchant_charges", "must be true or false"))
    expect(requests).toHaveLength(2)
  })

  it("sends the storefront's language for the verification page, and refuses what is no language tag", async () => {
    const { client, requests } = fakeFetch([{ status: 201, body: started }])
    await startSavingCard(client, { currencyCode: "eur", language: "it-IT" })
    expect(requests[0].body).toEqual({ currency_code: "eur", language: "it-IT" })
    await expect(startSavingCard(client, { currencyCode: "eur", language: "italiano" })).rejects.toThrow(
      new NexiInputError("language", 'must be a language tag such as "it" or "en-GB"'),
    )
    expect(requests).toHaveLength(1)
  })

  it("refuses a currency or a return page the plugin would refuse, naming the field, before any request", async () => {
    const { client, requests } = fakeFetch([])
    await expect(startSavingCard(client, { currencyCode: "euro" })).rejects.toThrow(
      new NexiInputError("currency_code", "must be an ISO 4217 code such as eur"),
    )
    await expect(startSavingCard(client, { currencyCode: "eur", returnUrl: "/account" })).rejects.toThrow(
      new NexiInputError("return_url", "must be an absolute URL of the storefront"),
    )
    expect(requests).toEqual([])
  })
})

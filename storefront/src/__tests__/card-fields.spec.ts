/** A Build session's fields as the page may show them, and the store's finalize with the next step it answers. */
import { cardFieldsOf, finalizeCardPayment, hasCardFields, NoCardFieldsError } from "../card-fields.js"
import { NexiStoreError } from "../client.js"
import { BACKEND, calls, fakeFetch } from "./fake-fetch.js"

const SDK = "https://gateway.test/monetaweb/resources/hfsdk.js"
const field = (id: string) => ({
  id,
  src: `https://gateway.test/field.html?id=${id}&sid=bs_1`,
  type: "TEXT",
  class: "CARD_FIELD",
})
const buildSession = {
  id: "payses_build",
  provider_id: "pp_nexi_nexi",
  data: {
    build_session_id: "bs_1",
    build_fields: [field("CARD_NUMBER"), field("EXPIRATION_DATE")],
    build_sdk: SDK,
    order_id: "MED123",
    status: "pending",
    reason: null,
  },
}

describe("cardFieldsOf", () => {
  it("answers the fields, the SDK and the sessions to finalize", () => {
    expect(cardFieldsOf(buildSession)).toEqual({
      sessionId: "payses_build",
      buildSessionId: "bs_1",
      fields: [field("CARD_NUMBER"), field("EXPIRATION_DATE")],
      sdkUrl: SDK,
      status: "pending",
      reason: null,
    })
    expect(
      cardFieldsOf({ ...buildSession, data: { ...buildSession.data, status: "error", reason: "Declined." } }),
    ).toMatchObject({ status: "error", reason: "Declined." })
  })

  it("refuses what the page must not show, each saying why", () => {
    const withData = (data: Record<string, unknown>) => ({ ...buildSession, data: { ...buildSession.data, ...data } })
    const cases: Array<[Parameters<typeof cardFieldsOf>[0], string]> = [
      [undefined, "the cart has no Nexi payment session; choose the card payment again"],
      [
        { id: "payses_m", provider_id: "pp_nexi-apm-psp-b_nexi", data: buildSession.data },
        "pp_nexi-apm-psp-b_nexi is not a Nexi card provider; only card sessions have card fields",
      ],
      [
        { ...buildSession, data: { hosted_page: "https://gateway.test/hpp/1", status: "pending" } },
        'the session holds no card fields: create it with cardSessionData({ integration: "build" }) (a saved card pays on the hosted page)',
      ],
      [
        withData({ build_fields: [{ id: "CARD_NUMBER", src: "javascript:alert(1)" }] }),
        "a field without an upper-case id and an http(s) src cannot be shown",
      ],
      [
        withData({ build_fields: [{ id: "x onload=alert(1)", src: field("A").src }] }),
        "a field without an upper-case id and an http(s) src cannot be shown",
      ],
      [
        withData({ build_sdk: "data:text/javascript,alert(1)" }),
        "build_sdk: the session holds no address of the gateway's SDK",
      ],
    ]
    for (const [session, message] of cases) {
      expect(() => cardFieldsOf(session)).toThrow(new NoCardFieldsError(message))
    }
  })

  it("tells a Build session from a hosted page's", () => {
    expect(hasCardFields(buildSession)).toBe(true)
    expect(hasCardFields({ ...buildSession, data: { hosted_page: "https://gateway.test/hpp/1" } })).toBe(false)
    expect(hasCardFields({ ...buildSession, provider_id: "pp_stripe_stripe" })).toBe(false)
    expect(hasCardFields(undefined)).toBe(false)
  })
})

describe("finalizeCardPayment", () => {
  const session = { cartId: "cart_1", sessionId: "payses_build" }

  it("posts the cart's id to the session's finalize route and answers the next step", async () => {
    const { client, requests } = fakeFetch([
      { body: { next: "complete_cart" } },
      { body: { next: "redirect", url: "https://gateway.test/hpp/MED123/challenge?token=t" } },
      { body: { next: "declined", reason: "The card issuer declined the payment." } },
      { body: { next: "wait" } },
    ])
    const signal = new AbortController().signal
    await expect(
      finalizeCardPayment(client, session, { headers: { authorization: "Bearer jwt" }, signal }),
    ).resolves.toEqual({ next: "complete_cart" })
    await expect(finalizeCardPayment(client, session)).resolves.toEqual({
      next: "redirect",
      url: "https://gateway.test/hpp/MED123/challenge?token=t",
    })
    await expect(finalizeCardPayment(client, session)).resolves.toEqual({
      next: "declined",
      reason: "The card issuer declined the payment.",
    })
    await expect(finalizeCardPayment(client, session)).resolves.toEqual({ next: "wait" })
    expect(calls(requests)).toEqual(Array(4).fill(`POST ${BACKEND}/store/nexi/payment-sessions/payses_build/finalize`))
    expect(requests[0].body).toEqual({ cart_id: "cart_1" })
    expect(requests[0].headers.authorization).toBe("Bearer jwt")
  })

  it("answers start_again when the store refuses the session (409), and throws other errors", async () => {
    const changed =
      "The cart's total changed after the card fields opened: start a new payment session (POST /store/payment-collections/:id/payment-sessions) and show its card fields."
    const { client } = fakeFetch([
      { status: 409, body: { type: "conflict", message: changed } },
      { status: 400, body: { message: "Build session bs_1 is not READY_FOR_PAYMENT" } },
    ])
    await expect(finalizeCardPayment(client, session)).resolves.toEqual({ next: "start_again", reason: changed })
    await expect(finalizeCardPayment(client, session)).rejects.toEqual(
      new NexiStoreError("Build session bs_1 is not READY_FOR_PAYMENT", 400),
    )
  })

  it("refuses a redirect the page must not follow, and an answer it does not know", async () => {
    const { client } = fakeFetch([
      { body: { next: "redirect", url: "javascript:alert(1)" } },
      { body: { next: "pay_later" } },
    ])
    await expect(finalizeCardPayment(client, session)).rejects.toThrow(
      "The store's finalize answered a redirect without a web address.",
    )
    await expect(finalizeCardPayment(client, session)).rejects.toThrow(/no next step the kit knows/)
  })
})

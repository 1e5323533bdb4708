/** The cart's Nexi session and the hosted page to redirect to. */
import {
  CART_PAYMENT_FIELDS,
  hostedPageOf,
  NoHostedPageError,
  nexiSessionOf,
  retrieveNexiSession,
} from "../hosted-page.js"
import { BACKEND, calls, fakeFetch } from "./fake-fetch.js"

const PAGE = "https://xpay.nexigroup.com/monetaweb/page/hosted/2/html?paymentid=123456789"
const cardSession = {
  id: "payses_card",
  provider_id: "pp_nexi_nexi",
  status: "pending",
  data: { hosted_page: PAGE, reason: null },
}

function cartWith(...sessions: Array<{ id: string; provider_id: string; data?: Record<string, unknown> }>) {
  return { id: "cart_1", payment_collection: { payment_sessions: sessions } }
}

describe("nexiSessionOf", () => {
  it("finds the Nexi session among the cart's", () => {
    expect(nexiSessionOf(cartWith({ id: "payses_s", provider_id: "pp_stripe_stripe" }, cardSession))).toBe(cardSession)
  })

  it("answers nothing for a cart without a Nexi session or without a payment collection", () => {
    expect(nexiSessionOf(cartWith({ id: "payses_s", provider_id: "pp_system_default" }))).toBeUndefined()
    expect(nexiSessionOf({ id: "cart_1", payment_collection: null })).toBeUndefined()
    expect(nexiSessionOf({ id: "cart_1" })).toBeUndefined()
  })
})

describe("retrieveNexiSession", () => {
  it("reads the cart with its payment sessions and answers the Nexi one", async () => {
    const { client, requests } = fakeFetch([{ body: { cart: cartWith(cardSession) } }])
    expect(await retrieveNexiSession(client, "cart_1", { headers: { authorization: "Bearer jwt" } })).toEqual(
      cardSession,
    )
    expect(calls(requests)).toEqual([
      `GET ${BACKEND}/store/carts/cart_1?fields=${encodeURIComponent(CART_PAYMENT_FIELDS)}`,
    ])
    expect(requests[0].headers.authorization).toBe("Bearer jwt")
  })
})

describe("hostedPageOf", () => {
  it("answers the card session's hosted page", () => {
    expect(hostedPageOf(cardSession)).toBe(PAGE)
    expect(hostedPageOf({ ...cardSession, data: { hosted_page: "http://localhost:4000/hpp/1" } })).toBe(
      "http://localhost:4000/hpp/1",
    )
  })

  it("refuses a missing session, a mobile session and a session without a page, each saying why", () => {
    const cases: Array<[Parameters<typeof hostedPageOf>[0], string]> = [
      [undefined, "hosted_page: the cart has no Nexi payment session; choose the card payment again"],
      [
        { id: "payses_m", provider_id: "pp_nexi-apm-psp-b_nexi", data: {} },
        "hosted_page: pp_nexi-apm-psp-b_nexi is not a Nexi card provider; only card sessions have a hosted page",
      ],
      [
        { ...cardSession, data: { status: "error", reason: "Declined." } },
        "hosted_page: the session holds no hosted page (it may have failed to start); choose the card payment again",
      ],
      [
        { ...cardSession, data: { hosted_page: "javascript:alert(1)" } },
        "hosted_page: the session holds no hosted page (it may have failed to start); choose the card payment again",
      ],
      [
        { ...cardSession, data: null },
        "hosted_page: the session holds no hosted page (it may have failed to start); choose the card payment again",
      ],
    ]
    for (const [session, message] of cases) {
      expect(() => hostedPageOf(session)).toThrow(new NoHostedPageError(message.replace("hosted_page: ", "")))
    }
  })
})

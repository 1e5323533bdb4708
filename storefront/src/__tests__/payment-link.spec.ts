/** The payment link's return page: what became of the link, from the store route. */
import { getPaymentLinkOutcome } from "../payment-link.js"
import { NexiInputError } from "../session-data.js"
import { BACKEND, calls, fakeFetch } from "./fake-fetch.js"

const paid = { status: "paid", amount: "29.89", currency_code: "eur", expires_at: "2026-12-12T23:59:59.999Z" }
const link = { orderId: "order_01ABC", sessionId: "payses_01XYZ" }

describe("getPaymentLinkOutcome", () => {
  it("asks the store route with the session in the path and the order in the query, and answers its outcome", async () => {
    const { client, requests } = fakeFetch([{ body: { payment_link: paid } }])
    await expect(getPaymentLinkOutcome(client, link, { headers: { authorization: "Bearer jwt" } })).resolves.toEqual(
      paid,
    )
    expect(calls(requests)).toEqual([`GET ${BACKEND}/store/nexi/payment-links/payses_01XYZ?order_id=order_01ABC`])
    expect(requests[0].headers).toMatchObject({
      authorization: "Bearer jwt",
      "x-publishable-api-key": "pk_test_storefront",
    })
  })

  it.each([
    ["order_id", { ...link, orderId: "" }],
    ["order_id", { ...link, orderId: "cart_01ABC" }],
    ["session_id", { ...link, sessionId: "payses_01/../x" }],
    ["session_id", { orderId: link.orderId, sessionId: undefined as unknown as string }],
  ])("refuses a bad %s before any request, naming it", async (field, input) => {
    const { client, requests } = fakeFetch([])
    const refusal = getPaymentLinkOutcome(client, input)
    await expect(refusal).rejects.toBeInstanceOf(NexiInputError)
    await expect(refusal).rejects.toMatchObject({
      field,
      message: expect.stringMatching(new RegExp(`^${field}: must be`)),
    })
    expect(requests).toEqual([])
  })

  it("lets the route's 404 through: the pair is not a link of that order", async () => {
    const { client } = fakeFetch([{ status: 404, body: { message: "Payment link not found" } }])
    await expect(getPaymentLinkOutcome(client, link)).rejects.toMatchObject({
      status: 404,
      message: "Payment link not found",
    })
  })
})

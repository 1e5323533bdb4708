/** The return from the hosted page and the status route, as the shopper's outcome. */
import {
  getSessionStatus,
  type NexiSessionStatus,
  outcomeOfStatus,
  readPaymentOutcome,
  resolveReturn,
} from "../payment-outcome.js"
import { BACKEND, calls, fakeFetch } from "./fake-fetch.js"

const STATUS_URL = `${BACKEND}/store/nexi/payment-sessions/payses_1?cart_id=cart_1`
const CART_URL = `${BACKEND}/store/carts/cart_1?fields=id%2C*payment_collection.payment_sessions`
const COMPLETE_URL = `${BACKEND}/store/carts/cart_1/complete`

function status(
  sessionStatus: string,
  data: Partial<NexiSessionStatus["payment_session"]["data"]> = {},
  orderId?: string,
): NexiSessionStatus {
  return {
    payment_session: {
      id: "payses_1",
      status: sessionStatus,
      provider_id: "pp_nexi_nexi",
      data: { reason: null, ...data },
    },
    cart_completed: orderId !== undefined,
    ...(orderId ? { order_id: orderId } : {}),
  }
}

const declined = status("error", { reason: "The card issuer declined the payment." })
const cartWithSession = {
  cart: {
    id: "cart_1",
    payment_collection: { payment_sessions: [{ id: "payses_1", provider_id: "pp_nexi_nexi", data: {} }] },
  },
}
const paymentFailed = {
  status: 400,
  body: { type: "payment_authorization_error", message: "Payment authorization failed" },
}

describe("outcomeOfStatus", () => {
  it("is the order once the cart is completed, whatever the session says", () => {
    expect(outcomeOfStatus(status("authorized", {}, "order_1"))).toEqual({ state: "order_placed", orderId: "order_1" })
  })

  it("is declined with the reason for an error, cancelled with the reason for a cancel", () => {
    expect(outcomeOfStatus(declined)).toEqual({ state: "declined", reason: "The card issuer declined the payment." })
    expect(outcomeOfStatus(status("canceled", { reason: "The shopper cancelled the payment." }))).toEqual({
      state: "cancelled",
      reason: "The shopper cancelled the payment.",
    })
    expect(outcomeOfStatus(status("error"))).toEqual({ state: "declined", reason: null })
  })

  it("is pending while the gateway has not decided, or the order is still being made", () => {
    expect(outcomeOfStatus(status("pending"))).toEqual({ state: "pending", sessionId: "payses_1" })
    expect(outcomeOfStatus(status("authorized"))).toEqual({ state: "pending", sessionId: "payses_1" })
    expect(outcomeOfStatus(status("pending", { approval_url: "https://psp.test/approve/1" }))).toEqual({
      state: "pending",
      sessionId: "payses_1",
      approvalUrl: "https://psp.test/approve/1",
    })
  })
})

describe("getSessionStatus and readPaymentOutcome", () => {
  it("ask the status route with the cart id and the caller's headers", async () => {
    const { client, requests } = fakeFetch([{ body: declined }, { body: declined }])
    expect(
      await getSessionStatus(
        client,
        { cartId: "cart_1", sessionId: "payses_1" },
        { headers: { authorization: "Bearer jwt" } },
      ),
    ).toEqual(declined)
    expect(await readPaymentOutcome(client, { cartId: "cart_1", sessionId: "payses_1" })).toEqual({
      state: "declined",
      reason: "The card issuer declined the payment.",
    })
    expect(calls(requests)).toEqual([`GET ${STATUS_URL}`, `GET ${STATUS_URL}`])
    expect(requests[0].headers.authorization).toBe("Bearer jwt")
  })
})

describe("resolveReturn", () => {
  it("places the order when completing the cart answers one, and asks nothing more", async () => {
    const { client, requests } = fakeFetch([{ body: { type: "order", order: { id: "order_1" } } }])
    expect(await resolveReturn(client, { cartId: "cart_1" })).toEqual({ state: "order_placed", orderId: "order_1" })
    expect(calls(requests)).toEqual([`POST ${COMPLETE_URL}`])
  })

  it("after a failed completion, finds the cart's Nexi session and answers why", async () => {
    const { client, requests } = fakeFetch([paymentFailed, { body: cartWithSession }, { body: declined }])
    expect(await resolveReturn(client, { cartId: "cart_1" }, { headers: { authorization: "Bearer jwt" } })).toEqual({
      state: "declined",
      reason: "The card issuer declined the payment.",
    })
    expect(calls(requests)).toEqual([`POST ${COMPLETE_URL}`, `GET ${CART_URL}`, `GET ${STATUS_URL}`])
    expect(requests.map((request) => request.headers.authorization)).toEqual(["Bearer jwt", "Bearer jwt", "Bearer jwt"])
  })

  it("uses the session the page came back for, and reads a cart answer as a failed completion", async () => {
    const { client, requests } = fakeFetch([
      { body: { type: "cart", cart: {}, error: { message: "Payment authorization failed" } } },
      { body: status("canceled") },
    ])
    expect(await resolveReturn(client, { cartId: "cart_1", sessionId: "payses_1" })).toEqual({
      state: "cancelled",
      reason: null,
    })
    expect(calls(requests)).toEqual([`POST ${COMPLETE_URL}`, `GET ${STATUS_URL}`])
  })

  it("answers the order the notification made, when completing failed meanwhile", async () => {
    const { client } = fakeFetch([paymentFailed, { body: status("authorized", {}, "order_9") }])
    expect(await resolveReturn(client, { cartId: "cart_1", sessionId: "payses_1" })).toEqual({
      state: "order_placed",
      orderId: "order_9",
    })
  })

  it("says no payment was started when the cart has no Nexi session", async () => {
    const { client, requests } = fakeFetch([
      paymentFailed,
      { body: { cart: { id: "cart_1", payment_collection: null } } },
    ])
    expect(await resolveReturn(client, { cartId: "cart_1" })).toEqual({ state: "no_payment" })
    expect(requests).toHaveLength(2)
  })

  it("lets the status route's errors through (a wrong cart is its 404)", async () => {
    const { client } = fakeFetch([
      paymentFailed,
      { status: 404, body: { type: "not_found", message: "Payment session not found" } },
    ])
    await expect(resolveReturn(client, { cartId: "cart_1", sessionId: "payses_1" })).rejects.toMatchObject({
      status: 404,
      message: "Payment session not found",
    })
  })

  it("stops when aborted, instead of reading a failed completion into the status route", async () => {
    const controller = new AbortController()
    const { client, requests } = fakeFetch([paymentFailed])
    const abortingClient = {
      fetch<T>(path: string, request?: Parameters<typeof client.fetch>[1]): Promise<T> {
        controller.abort(new Error("left the page"))
        return client.fetch<T>(path, request)
      },
    }
    await expect(resolveReturn(abortingClient, { cartId: "cart_1" }, { signal: controller.signal })).rejects.toThrow(
      "left the page",
    )
    expect(requests).toEqual([])
  })
})

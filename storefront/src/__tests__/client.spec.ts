/** The plain-fetch client: the exact HTTP requests, and Medusa's errors as NexiStoreError; and what a js-sdk-shaped client receives. */
import { type NexiStoreClient, NexiStoreError, type StoreRequest, storeClientFromFetch } from "../client.js"
import { listPaymentMethods } from "../payment-methods.js"
import { resolveReturn } from "../payment-outcome.js"
import { BACKEND, fakeFetch, PUBLISHABLE_KEY } from "./fake-fetch.js"

describe("storeClientFromFetch", () => {
  it("sends a GET with the query, the publishable key and the call's headers, and answers the JSON", async () => {
    const { client, requests } = fakeFetch([{ body: { ok: true } }])
    const answer = await client.fetch<{ ok: boolean }>("/store/things", {
      query: { a: "1 2", b: "x&y" },
      headers: { authorization: "Bearer t" },
    })
    expect(answer).toEqual({ ok: true })
    expect(requests).toEqual([
      {
        method: "GET",
        url: `${BACKEND}/store/things?a=1+2&b=x%26y`,
        headers: { accept: "application/json", "x-publishable-api-key": PUBLISHABLE_KEY, authorization: "Bearer t" },
      },
    ])
  })

  it("sends a body as JSON with its content type", async () => {
    const { client, requests } = fakeFetch([{ body: {} }])
    await client.fetch("/store/things", { method: "POST", body: { n: "100" } })
    expect(requests[0]).toEqual({
      method: "POST",
      url: `${BACKEND}/store/things`,
      headers: {
        accept: "application/json",
        "x-publishable-api-key": PUBLISHABLE_KEY,
        "content-type": "application/json",
      },
      body: { n: "100" },
    })
  })

  it("joins a base URL with a trailing slash, and lets a call's header win over the configured ones", async () => {
    const { fetch, requests } = fakeFetch([{ body: {} }])
    const client = storeClientFromFetch(fetch, {
      baseUrl: `${BACKEND}/`,
      publishableKey: PUBLISHABLE_KEY,
      headers: { "accept-language": "it", "x-extra": "store" },
    })
    await client.fetch("/store/things", { headers: { "x-extra": "call" } })
    expect(requests[0].url).toBe(`${BACKEND}/store/things`)
    expect(requests[0].headers).toMatchObject({ "accept-language": "it", "x-extra": "call" })
  })

  it("throws Medusa's message and the status on an error answer", async () => {
    const { client } = fakeFetch([{ status: 400, body: { type: "invalid_data", message: "region_id: is required" } }])
    const failure = await client.fetch("/store/nexi/payment-methods").catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(NexiStoreError)
    expect(failure).toMatchObject({ status: 400, message: "region_id: is required" })
  })

  it("throws the status when the error answer is not Medusa's JSON", async () => {
    const client = storeClientFromFetch(
      async () => new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
      {
        baseUrl: BACKEND,
        publishableKey: PUBLISHABLE_KEY,
      },
    )
    await expect(client.fetch("/store/things")).rejects.toMatchObject({ status: 502, message: "502 Bad Gateway" })
  })

  it("passes the signal on, so an aborted call never reaches the network", async () => {
    const { client, requests } = fakeFetch([{ body: {} }])
    const controller = new AbortController()
    controller.abort(new Error("left the page"))
    await expect(client.fetch("/store/things", { signal: controller.signal })).rejects.toThrow("left the page")
    expect(requests).toEqual([])
  })
})

describe("a client shaped like the js-sdk's sdk.client", () => {
  it("gets the path, the query as an object and the method, never a URL the kit encoded itself", async () => {
    const received: Array<[string, StoreRequest | undefined]> = []
    const sdkLikeClient: NexiStoreClient = {
      async fetch<T>(path: string, request?: StoreRequest): Promise<T> {
        received.push([path, request])
        return (path.endsWith("/complete") ? { type: "order", order: { id: "order_1" } } : { payment_methods: [] }) as T
      },
    }
    const headers = { authorization: "Bearer jwt" }
    await listPaymentMethods(sdkLikeClient, "reg_01", { headers })
    await resolveReturn(sdkLikeClient, { cartId: "cart_1" }, { headers })
    expect(received).toEqual([
      ["/store/nexi/payment-methods", { query: { region_id: "reg_01" }, headers }],
      ["/store/carts/cart_1/complete", { method: "POST", headers }],
    ])
  })
})

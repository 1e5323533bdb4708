import { InvalidOptionsError, isLoopbackHost, parseNexiOptions } from "../options"

const BASE = {
  apiKey: "key",
  resultUrl: "https://shop.example/checkout/result?cart_id={cart_id}",
  cancelUrl: "https://shop.example/checkout?step=payment&cart_id={cart_id}",
  notificationUrl: "https://api.shop.example",
}
const APM = { consumerKey: "k", consumerSecret: "s", merchantId: "m", environment: "https://apm.example/api" }

function problem(options: unknown): string {
  try {
    parseNexiOptions(options)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionsError)
    return (error as Error).message
  }
  throw new Error("the options were accepted")
}

describe("parseNexiOptions", () => {
  it("fills the defaults", () => {
    const options = parseNexiOptions({ ...BASE })
    expect(options).toMatchObject({ environment: "sandbox", captureType: "EXPLICIT", language: "eng", retries: 2 })
  })

  it.each([
    ["production", { environment: "production" }],
    ["the simulator on 127.0.0.1", { environment: "http://127.0.0.1:4010/api/phoenix-0.0/psp/api/v1" }],
    ["another loopback address", { environment: "http://127.5.6.7:4010" }],
    [
      "localhost everywhere",
      {
        environment: "http://localhost:4010",
        notificationUrl: "http://localhost:9000",
        resultUrl: "http://localhost:8000/r?c={cart_id}",
        cancelUrl: "http://LOCALHOST:8000/c",
      },
    ],
    ["IPv6 loopback", { environment: "http://[::1]:4010/api" }],
    ["an https gateway base URL", { environment: "https://proxy.example/xpay/" }],
    ["a notification URL with a path and trailing slash", { notificationUrl: "https://api.shop.example/medusa/" }],
    [
      "templates in the query of the result page",
      { resultUrl: "https://shop.example/r?cart={cart_id}&s={session_id}#top" },
    ],
    [
      "apm on loopback with logos over https",
      { apm: { ...APM, environment: "http://127.0.0.1:4010/apm", logoUrls: { PSP_B: "https://cdn.example/b.svg" } } },
    ],
  ])("accepts %s", (_case, overrides) => expect(() => parseNexiOptions({ ...BASE, ...overrides })).not.toThrow())

  it.each([
    ["the gateway's", {}, { retries: 5 }, /^[^;]*: timeoutMs: with retries 5, a call could take 100000 ms/],
    ["the mobile service's", { apm: { ...APM, retries: 3, timeoutMs: 15_000 } }, {}, /apm\.timeoutMs: with retries 3/],
  ])(
    "refuses %s timeout and retries that let a call outlast the ledger's wait for a lost answer",
    (_case, apm, gateway, message) => {
      expect(problem({ ...BASE, ...apm, ...gateway })).toMatch(message)
    },
  )

  it("accepts the most retries with a timeout short enough for them", () => {
    expect(() => parseNexiOptions({ ...BASE, retries: 5, timeoutMs: 7_500 })).not.toThrow()
    expect(() => parseNexiOptions({ ...BASE, retries: 5, timeoutMs: 7_600 })).toThrow(/timeoutMs/)
  })

  it.each([
    ["apiKey", { apiKey: undefined }, /apiKey: is required/],
    ["an empty apiKey", { apiKey: "" }, /apiKey: is required/],
    ["resultUrl", { resultUrl: undefined }, /resultUrl: is required/],
    ["notificationUrl", { notificationUrl: undefined }, /notificationUrl: is required/],
    ["apm.consumerSecret", { apm: { ...APM, consumerSecret: undefined } }, /apm\.consumerSecret: is required/],
    ["apm.environment", { apm: { ...APM, environment: undefined } }, /apm\.environment: is required/],
  ])("says a missing %s is required", (_case, overrides, message) => {
    const text = problem({ ...BASE, ...overrides })
    expect(text).toMatch(message)
    expect(text).not.toMatch(/expected string/)
  })

  it("lists every missing option at once", () => {
    expect(problem({})).toBe(
      "medusa-payment-nexi: invalid provider options: apiKey: is required; resultUrl: is required; cancelUrl: is required; notificationUrl: is required",
    )
  })

  it.each([
    ["a word", "staging"],
    ["a capitalised name", "Sandbox"],
    ["a number", 42],
    ["an empty string", ""],
  ])("names the accepted environments for %s", (_case, environment) =>
    expect(problem({ ...BASE, environment })).toMatch(
      /environment: must be "sandbox", "production" or an http\(s\) base URL/,
    ),
  )

  it.each([
    ["environment", "javascript:alert(1)", /environment: .*not javascript:/],
    ["environment", "ftp://gateway.example/api", /environment: .*not ftp:/],
    ["environment", "http://xpay.example/api", /environment: .*must be an https URL/],
    ["environment", "http://10.0.0.5:4010/api", /environment: .*must be an https URL/],
    ["environment", "http://localhost.evil.example/api", /environment: .*must be an https URL/],
    ["environment", "https://proxy.example/api?x=1", /environment: .*without a query/],
    ["resultUrl", "javascript:alert(1)", /resultUrl: must be an http\(s\) URL, not javascript:/],
    ["resultUrl", "data:text/html,<script>1</script>", /resultUrl: must be an http\(s\) URL, not data:/],
    ["resultUrl", "http://shop.example/result", /resultUrl: must be an https URL/],
    ["resultUrl", "/checkout/result", /resultUrl: must be an absolute http\(s\) URL/],
    ["cancelUrl", "ftp://shop.example/cancel", /cancelUrl: must be an http\(s\) URL, not ftp:/],
    ["cancelUrl", "https://shop.example/a b", /cancelUrl: must not contain spaces/],
    ["notificationUrl", "https://store.example/?a=1#x", /notificationUrl: must be a base URL without a query/],
    ["notificationUrl", "https://store.example/?", /notificationUrl: must be a base URL without a query/],
    ["notificationUrl", "https://store.example/#x", /notificationUrl: must be a base URL without a fragment/],
    ["notificationUrl", "http://store.example", /notificationUrl: must be an https URL/],
    ["notificationUrl", "https://store.example\n", /notificationUrl: must not contain spaces or control characters/],
  ])("refuses %s %p", (option, value, message) => expect(problem({ ...BASE, [option]: value })).toMatch(message))

  it("puts a payment link's pages on the storefront of resultUrl unless they are given", () => {
    expect(parseNexiOptions({ ...BASE })).toMatchObject({
      paymentLinkResultUrl: "https://shop.example/nexi/payment-link?order_id={order_id}&session_id={session_id}",
      paymentLinkCancelUrl: "https://shop.example/nexi/payment-link?order_id={order_id}&session_id={session_id}",
    })
    const given = "https://shop.example/it/pay/{order_id}?s={session_id}"
    expect(parseNexiOptions({ ...BASE, paymentLinkResultUrl: given })).toMatchObject({
      paymentLinkResultUrl: given,
      paymentLinkCancelUrl: given,
    })
    expect(
      parseNexiOptions({ ...BASE, paymentLinkResultUrl: given, paymentLinkCancelUrl: "https://shop.example/" }),
    ).toMatchObject({ paymentLinkResultUrl: given, paymentLinkCancelUrl: "https://shop.example/" })
  })

  it.each([
    [
      "paymentLinkResultUrl",
      "https://shop.example/r?cart_id={cart_id}",
      /paymentLinkResultUrl: \{cart_id\} is not filled in for a payment link/,
    ],
    [
      "paymentLinkCancelUrl",
      "https://shop.example/r/{link_id}",
      /paymentLinkCancelUrl: \{link_id\} is not filled in .*use \{order_id\} and \{session_id\}/,
    ],
    ["paymentLinkResultUrl", "http://shop.example/r", /paymentLinkResultUrl: must be an https URL/],
    ["paymentLinkCancelUrl", "", /paymentLinkCancelUrl: is required/],
  ])("refuses %s %p", (option, value, message) => expect(problem({ ...BASE, [option]: value })).toMatch(message))

  it.each([
    ["apm.environment", { environment: "http://apm.example/api" }, /apm\.environment: must be an https URL/],
    [
      "apm.environment",
      { environment: "https://apm.example/api#x" },
      /apm\.environment: must be a base URL without a fragment/,
    ],
    ["apm.environment", { environment: "javascript:alert(1)" }, /apm\.environment: must be an http\(s\) URL/],
    ["apm.logoUrls", { logoUrls: { PSP_B: "http://cdn.example/b.svg" } }, /apm\.logoUrls\.PSP_B: must be an https URL/],
    [
      "apm.logoUrls",
      { logoUrls: { PSP_C: "data:image/svg+xml,<svg/>" } },
      /apm\.logoUrls\.PSP_C: must be an http\(s\) URL, not data:/,
    ],
  ])("refuses a bad %s", (_option, overrides, message) =>
    expect(problem({ ...BASE, apm: { ...APM, ...overrides } })).toMatch(message),
  )

  it("offers no wallet by default, and the wallets the merchant's contract enables when listed", () => {
    expect(parseNexiOptions({ ...BASE }).wallets).toEqual([])
    expect(parseNexiOptions({ ...BASE, wallets: ["APPLEPAY", "GOOGLEPAY"] }).wallets).toEqual(["APPLEPAY", "GOOGLEPAY"])
  })

  it.each([
    [["GOOGLEPAY", "PAYPAL"], /wallets\.1: must be "GOOGLEPAY" or "APPLEPAY"/],
    [["googlepay"], /wallets\.0: must be "GOOGLEPAY" or "APPLEPAY"/],
    [["GOOGLEPAY", "GOOGLEPAY"], /wallets\.1: lists GOOGLEPAY a second time/],
    ["GOOGLEPAY", /wallets: must be a list of the wallets Nexi enabled on the terminal/],
  ])("refuses wallets %p, naming the entry", (wallets, message) =>
    expect(problem({ ...BASE, wallets })).toMatch(message),
  )

  it("never puts the API key in its message", () => {
    expect(problem({ ...BASE, apiKey: "secret-key-value", environment: "http://xpay.example" })).not.toContain(
      "secret-key-value",
    )
  })
})

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST", "localhost.", "127.0.0.1", "127.255.0.9", "[::1]"])("%s is loopback", (host) =>
    expect(isLoopbackHost(host)).toBe(true),
  )
  it.each([
    "example.com",
    "localhost.example.com",
    "128.0.0.1",
    "10.0.0.1",
    "[::2]",
    "0.0.0.0",
    "127.0.0.1.example.com",
  ])("%s is not", (host) => expect(isLoopbackHost(host)).toBe(false))
})

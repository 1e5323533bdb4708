import { GATEWAY_BASE_URLS, resolveGatewayBaseUrl } from "../environment"

describe("resolveGatewayBaseUrl", () => {
  it("knows the sandbox and production addresses", () => {
    expect(resolveGatewayBaseUrl("sandbox")).toBe("https://xpaysandbox.nexigroup.com/api/phoenix-0.0/psp/api/v1")
    expect(resolveGatewayBaseUrl("production")).toBe("https://xpay.nexigroup.com/api/phoenix-0.0/psp/api/v1")
    expect(GATEWAY_BASE_URLS.production).toBe(resolveGatewayBaseUrl("production"))
  })

  it("accepts another base URL, without a trailing slash", () => {
    expect(resolveGatewayBaseUrl("http://127.0.0.1:4000/api/v1/")).toBe("http://127.0.0.1:4000/api/v1")
  })

  it.each(["staging", "ftp://example.com", ""])("refuses %p, naming the option", (value) => {
    expect(() => resolveGatewayBaseUrl(value)).toThrow(/^environment: /)
  })
})

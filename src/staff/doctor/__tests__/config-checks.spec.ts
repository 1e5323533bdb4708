import type { NexiOptions } from "../../../core/options"
import type { DoctorContext } from "../check"
import {
  captureTypeCheck,
  environmentCheck,
  nonPublicHostReason,
  notificationUrlCheck,
  returnUrlsCheck,
} from "../config-checks"

describe("nonPublicHostReason", () => {
  it.each([
    ["localhost", /localhost is this machine/],
    ["api.localhost", /ends in \.localhost/],
    ["backend", /single-label/],
    ["shop.internal", /ends in \.internal/],
    ["printer.local", /ends in \.local/],
    ["127.0.0.1", /loopback, 127\.0\.0\.0\/8/],
    ["10.1.2.3", /private, 10\.0\.0\.0\/8/],
    ["172.16.0.1", /private, 172\.16\.0\.0\/12/],
    ["172.31.255.254", /private, 172\.16\.0\.0\/12/],
    ["192.168.1.10", /private, 192\.168\.0\.0\/16/],
    ["169.254.169.254", /link-local, 169\.254\.0\.0\/16/],
    ["[::1]", /loopback, ::1/],
    ["[fd12:3456::1]", /unique local, fc00::\/7/],
    ["[fc00::1]", /unique local, fc00::\/7/],
    ["[fe80::1]", /link-local/],
    ["[::ffff:192.168.0.1]", /private, 192\.168/],
    ["8.8.8.8", /is an IP address, not a host name/],
    ["[2001:4860::8888]", /is an IP address, not a host name/],
  ])("refuses %s", (host, reason) => {
    expect(nonPublicHostReason(host)).toMatch(reason)
  })

  it.each(["api.shop.example.com", "shop.it", "172.15.0.1.nip.example.org", "xn--80ak6aa92e.com", "shop.com."])(
    "accepts %s",
    (host) => {
      expect(nonPublicHostReason(host)).toBeUndefined()
    },
  )

  it("leaves the public neighbours of private ranges to the IP-literal rule", () => {
    expect(nonPublicHostReason("172.32.0.1")).toBe("172.32.0.1 is an IP address, not a host name")
    expect(nonPublicHostReason("11.0.0.1")).toBe("11.0.0.1 is an IP address, not a host name")
  })
})

// Pure checks: each reads one option, so a context holding only that option is enough.
const withOptions = (options: Partial<NexiOptions>) => ({ options }) as DoctorContext

describe("environment check", () => {
  it("names Nexi's sandbox and production with their URLs", async () => {
    const sandbox = await environmentCheck.run(withOptions({ environment: "sandbox" }))
    expect(sandbox).toMatchObject({ status: "pass" })
    expect(sandbox.detail).toMatch(/^sandbox \(https:\/\/xpaysandbox\.nexigroup\.com\/.*test cards only.*"production"/)
    const production = await environmentCheck.run(withOptions({ environment: "production" }))
    expect(production.status).toBe("pass")
    expect(production.detail).toMatch(/^production \(https:\/\/xpay\.nexigroup\.com\//)
  })

  it("warns about a custom URL such as the simulator's", async () => {
    const finding = await environmentCheck.run(
      withOptions({ environment: "http://127.0.0.1:4010/api/phoenix-0.0/psp/api/v1/" }),
    )
    expect(finding.status).toBe("warn")
    expect(finding.detail).toContain("a custom URL (http://127.0.0.1:4010/api/phoenix-0.0/psp/api/v1)")
    expect(finding.fix).toMatch(/"sandbox".*"production"/)
    expect(environmentCheck.blocking).toBe(false)
  })
})

describe("capture type check", () => {
  it("says what EXPLICIT and IMPLICIT mean", async () => {
    expect((await captureTypeCheck.run(withOptions({ captureType: "EXPLICIT" }))).detail).toMatch(
      /^EXPLICIT: .*only authorized.*capture/,
    )
    expect((await captureTypeCheck.run(withOptions({ captureType: "IMPLICIT" }))).detail).toMatch(
      /^IMPLICIT: the money is taken when the shopper pays/,
    )
    expect(captureTypeCheck.blocking).toBe(false)
  })
})

// A pure check: it reads one option, so a context holding only that option is enough.
const checkNotificationUrl = (notificationUrl: string) =>
  notificationUrlCheck.run({ options: { notificationUrl } as NexiOptions } as DoctorContext)

describe("notification URL check", () => {
  it("passes https on 443 with a public host, naming where notifications go", async () => {
    const finding = await checkNotificationUrl("https://api.shop.example.com")
    expect(finding.status).toBe("pass")
    expect(finding.detail).toContain("https://api.shop.example.com/hooks/payment/nexi_<entry id>")
    expect(await checkNotificationUrl("https://api.shop.example.com:443/medusa")).toMatchObject({ status: "pass" })
  })

  it.each([
    ["http://localhost:9000", [/uses http, not https/, /port 9000/, /localhost is this machine/]],
    ["https://localhost", [/localhost is this machine/]],
    ["https://api.shop.example.com:8443", [/port 8443, not 443/]],
    ["https://10.0.0.5", [/private, 10\.0\.0\.0\/8/]],
    ["https://172.20.1.1", [/private, 172\.16\.0\.0\/12/]],
    ["https://192.168.0.2", [/private, 192\.168\.0\.0\/16/]],
    ["https://169.254.1.1", [/link-local/]],
    ["https://[fd00::1]", [/unique local, fc00::\/7/]],
    ["https://203.0.113.7", [/IP address, not a host name/]],
    ["https://backend", [/single-label/]],
  ])("fails %s with every reason and the fix", async (url, reasons) => {
    const finding = await checkNotificationUrl(url)
    expect(finding.status).toBe("fail")
    for (const reason of reasons) expect(finding.detail).toMatch(reason)
    expect(finding.fix).toMatch(/public https address on port 443/)
  })

  it("blocks going live", () => {
    expect(notificationUrlCheck.blocking).toBe(true)
  })
})

// A pure check: it reads two options, so a context holding only those is enough.
const checkReturnUrls = (resultUrl: string, cancelUrl: string) =>
  returnUrlsCheck.run({ options: { resultUrl, cancelUrl } as NexiOptions } as DoctorContext)

const RESULT = "https://shop.example.com/checkout/nexi/result?cart_id={cart_id}"
const CANCEL = "https://shop.example.com/checkout?cart_id={cart_id}"

describe("return URLs check", () => {
  it("passes https URLs carrying {cart_id} or {session_id}", async () => {
    expect(await checkReturnUrls(RESULT, CANCEL)).toMatchObject({ status: "pass" })
    expect(await checkReturnUrls("https://shop.example.com/r/{session_id}", CANCEL)).toMatchObject({ status: "pass" })
  })

  it("fails an http result URL, naming the option", async () => {
    const finding = await checkReturnUrls("http://localhost:8000/checkout/nexi/result?cart_id={cart_id}", CANCEL)
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/resultUrl http:\/\/localhost:8000\S* uses http, not https/)
    expect(finding.detail).not.toMatch(/cancelUrl/)
    expect(finding.fix).toMatch(/\{cart_id\}/)
  })

  it("fails a cancel URL without a placeholder", async () => {
    const finding = await checkReturnUrls(RESULT, "https://shop.example.com/checkout")
    expect(finding.status).toBe("fail")
    expect(finding.detail).toBe(
      "cancelUrl https://shop.example.com/checkout carries neither {cart_id} nor {session_id}.",
    )
  })

  it("warns about an https URL on a host shoppers cannot reach", async () => {
    const finding = await checkReturnUrls("https://localhost/result?cart_id={cart_id}", CANCEL)
    expect(finding.status).toBe("warn")
    expect(finding.detail).toMatch(/resultUrl: localhost is this machine/)
  })
})

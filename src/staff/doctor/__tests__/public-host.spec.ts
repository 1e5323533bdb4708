import { nonPublicHostReason } from "../public-host"

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

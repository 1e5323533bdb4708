import type { NexiOptions } from "../../../core/options"
import type { DoctorContext } from "../check"
import { notificationUrlCheck } from "../notification-url-check"

// A pure check: it reads one option, so a context holding only that option is enough.
const run = (notificationUrl: string) =>
  notificationUrlCheck.run({ options: { notificationUrl } as NexiOptions } as DoctorContext)

describe("notification URL check", () => {
  it("passes https on 443 with a public host, naming where notifications go", async () => {
    const finding = await run("https://api.shop.example.com")
    expect(finding.status).toBe("pass")
    expect(finding.detail).toContain("https://api.shop.example.com/hooks/payment/nexi_<entry id>")
    expect(await run("https://api.shop.example.com:443/medusa")).toMatchObject({ status: "pass" })
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
    const finding = await run(url)
    expect(finding.status).toBe("fail")
    for (const reason of reasons) expect(finding.detail).toMatch(reason)
    expect(finding.fix).toMatch(/public https address on port 443/)
  })

  it("blocks going live", () => {
    expect(notificationUrlCheck.blocking).toBe(true)
  })
})

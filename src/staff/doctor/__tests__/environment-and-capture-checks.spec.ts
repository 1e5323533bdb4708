import type { NexiOptions } from "../../../core/options"
import { captureTypeCheck } from "../capture-type-check"
import type { DoctorContext } from "../check"
import { environmentCheck } from "../environment-check"

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

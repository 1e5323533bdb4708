import { apiKeyCheck } from "../api-key-check"
import { closedPort, doctorFixture, SIM_API_KEY } from "./support/doctor-fixture"

const doctor = doctorFixture()

describe("API key check, against the simulator", () => {
  it("passes when GET /payment_methods answers 200", async () => {
    const finding = await apiKeyCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toBe(
      `The gateway accepts the API key: GET ${doctor.simulator().gatewayUrl}/payment_methods answered 200 with 8 payment methods.`,
    )
  })

  it("fails a wrong key (401) with the fix, never printing a key", async () => {
    const finding = await apiKeyCheck.run(doctor.context({ apiKey: "not-the-merchant-key" }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/^the API key is refused; GET \S+\/payment_methods answered 401\.$/)
    expect(finding.fix).toMatch(/apiKey option \(NEXI_API_KEY\)/)
    expect(JSON.stringify(finding)).not.toContain("not-the-merchant-key")
    expect(JSON.stringify(finding)).not.toContain(SIM_API_KEY)
  })

  it("fails an unreachable gateway naming its URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/phoenix-0.0/psp/api/v1`
    const finding = await apiKeyCheck.run(doctor.context({ environment: url }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(
      new RegExp(`^the gateway is unreachable at ${url.replace(/\./g, "\\.")}/payment_methods: `),
    )
    expect(finding.fix).toMatch(/environment option/)
  })

  it("fails a URL that is not the gateway's", async () => {
    const finding = await apiKeyCheck.run(doctor.context({ environment: `${doctor.simulator().url}/not-the-gateway` }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/answered 404 that is not the gateway's payment methods list/)
  })
})

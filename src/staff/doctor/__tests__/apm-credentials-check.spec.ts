import { createApmClient } from "../../../apm/http-apm-client"
import { capturingLogger } from "../../../http/__tests__/support/expectations"
import { apmCredentialsCheck } from "../apm-credentials-check"
import { closedPort, doctorFixture } from "./support/doctor-fixture"

const doctor = doctorFixture()

describe("APM credentials check, against the simulator", () => {
  it("passes when a status read of an unknown transaction answers 404", async () => {
    const finding = await apmCredentialsCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toMatch(
      /accepts the consumer key and secret: a status read of an unknown transaction \(GET \S+\/ms\/aapay\/v2\/transaction\/999999999999999999\) answered 404\.$/,
    )
  })

  it("logs nothing above debug when it passes: the 404 is the answer it asked for", async () => {
    const { lines, logger } = capturingLogger()
    const context = doctor.context()
    const apm = createApmClient({ ...context.options.apm!, logger })
    const finding = await apmCredentialsCheck.run({ ...context, clients: { ...context.clients, apm } })
    apm.close()
    expect(finding.status).toBe("pass")
    expect(lines.filter((line) => !line.startsWith("debug "))).toEqual([])
  })

  it("fails a wrong consumer secret (401), never printing it", async () => {
    const finding = await apmCredentialsCheck.run(doctor.context({ apm: { consumerSecret: "wrong-secret" } }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/^the consumer key and secret are refused; GET \S+ answered 401\.$/)
    expect(finding.fix).toMatch(/apm\.consumerKey and apm\.consumerSecret/)
    expect(JSON.stringify(finding)).not.toMatch(/wrong-secret|sim-secret/)
  })

  it("fails an unreachable service naming its URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/apm`
    const finding = await apmCredentialsCheck.run(doctor.context({ apm: { environment: url } }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toContain(`the service is unreachable at ${url}/ms/aapay/v2/transaction/`)
  })

  it("passes, saying so, when mobile payments are not configured", async () => {
    const finding = await apmCredentialsCheck.run(doctor.context({ apm: null }))
    expect(finding).toEqual({
      status: "pass",
      detail: "apm is not configured: mobile payments are off, nothing to check.",
    })
  })
})

import { clockCheck } from "../clock-check"
import { closedPort, doctorFixture, SIM_API_KEY } from "./support/doctor-fixture"

const doctor = doctorFixture()

describe("clock check, against the simulator's Date header", () => {
  it("passes a clock in step with the gateway's", async () => {
    const finding = await clockCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toMatch(/^The local clock is within [12] s of the gateway's \(Date: \w{3}, /)
  })

  it("warns above 60 s of skew, saying which way", async () => {
    const ahead = await clockCheck.run(doctor.context({}, { now: () => Date.now() + 5 * 60_000 }))
    expect(ahead.status).toBe("warn")
    expect(ahead.detail).toMatch(/^The local clock is 30\d s ahead of the gateway's/)
    expect(ahead.fix).toMatch(/NTP/)
    const behind = await clockCheck.run(doctor.context({}, { now: () => Date.now() - 90_000 }))
    expect(behind.status).toBe("warn")
    expect(behind.detail).toMatch(/^The local clock is (89|9\d) s behind the gateway's/)
  })

  it("stays within 60 s at 59 s of skew", async () => {
    const finding = await clockCheck.run(doctor.context({}, { now: () => Date.now() + 58_000 }))
    expect(finding.status).toBe("pass")
  })

  it("sends the API key in its header only, and warns when the gateway cannot be reached", async () => {
    const seen: Array<{ url: string; headers: Headers }> = []
    // Our own seam (the check's fetch): records what the plain request carries, then sends it.
    const recording: typeof fetch = async (url, init) => {
      seen.push({ url: String(url), headers: new Headers(init?.headers) })
      return fetch(url, init)
    }
    await clockCheck.run(doctor.context({}, { fetch: recording }))
    expect(seen).toHaveLength(1)
    expect(seen[0].url).toBe(doctor.simulator().gatewayUrl)
    expect(seen[0].headers.get("x-api-key")).toBe(SIM_API_KEY)

    const down = await clockCheck.run(doctor.context({ environment: `http://127.0.0.1:${await closedPort()}/v1` }))
    expect(down.status).toBe("warn")
    expect(down.detail).toMatch(/^Could not read the gateway's time from http:\/\/127\.0\.0\.1:\d+\/v1: /)
    expect(clockCheck.blocking).toBe(false)
  })
})

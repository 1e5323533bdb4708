import { DOCTOR_CHECKS, runDoctor } from "../run-doctor"
import { doctorFixture, SIM_API_KEY } from "./support/doctor-fixture"

const doctor = doctorFixture()

const statuses = (report: Awaited<ReturnType<typeof runDoctor>>) =>
  Object.fromEntries(report.checks.map((check) => [check.id, check.status]))

describe("runDoctor, against the simulator over HTTP", () => {
  it("answers every check in order and no blocking problem for a good configuration", async () => {
    const report = await runDoctor(doctor.input())
    expect(report.checks.map((check) => check.id)).toEqual([
      "api-key",
      "environment",
      "notification-url",
      "return-urls",
      "currencies",
      "apm-credentials",
      "clock",
      "capture-type",
      "wallets",
    ])
    expect(statuses(report)).toEqual({
      "api-key": "pass",
      // The simulator is a custom URL.
      environment: "warn",
      "notification-url": "pass",
      "return-urls": "pass",
      currencies: "pass",
      "apm-credentials": "pass",
      clock: "pass",
      "capture-type": "pass",
      wallets: "pass",
    })
    expect(report.blocking).toBe(false)
    for (const check of report.checks) expect(check.title).not.toBe("")
    expect(JSON.stringify(report)).not.toContain(SIM_API_KEY)
    expect(JSON.stringify(report)).not.toContain("sim-secret")
  })

  it.each([
    ["a wrong API key", { apiKey: "wrong-key" }, {}, "api-key"],
    ["a localhost notification URL", { notificationUrl: "http://localhost:9000" }, {}, "notification-url"],
    ["an http result URL", { resultUrl: "http://localhost:8000/result?cart_id={cart_id}" }, {}, "return-urls"],
    ["a cancel URL without placeholder", { cancelUrl: "https://shop.example.com/checkout" }, {}, "return-urls"],
    ["an unknown currency", {}, { currencies: ["EUR", "XTS"] }, "currencies"],
    ["a wrong APM secret", { apm: { consumerSecret: "wrong" } }, {}, "apm-credentials"],
  ])("blocks going live with %s, failing exactly that check", async (_case, overrides, extra, failing) => {
    const report = await runDoctor(doctor.input(overrides, extra))
    expect(report.blocking).toBe(true)
    expect(report.checks.filter((check) => check.status === "fail").map((check) => check.id)).toEqual([failing])
    expect(report.checks.find((check) => check.id === failing)?.fix).toEqual(expect.any(String))
  })

  it("does not block on warnings alone (clock skew, custom URL, no currencies)", async () => {
    const report = await runDoctor(doctor.input({}, { currencies: undefined, now: () => Date.now() + 3_600_000 }))
    expect(statuses(report)).toMatchObject({ environment: "warn", currencies: "warn", clock: "warn" })
    expect(report.blocking).toBe(false)
  })

  it("reads the payment methods once for the API key and currency checks", async () => {
    const input = doctor.input()
    const calls = jest.spyOn(input.clients.gateway, "listPaymentMethods")
    await runDoctor(input)
    expect(calls).toHaveBeenCalledTimes(1)
    calls.mockRestore()
  })

  it("reports a check that throws as failed and keeps running the others", async () => {
    const exploding = { id: "boom", title: "Boom", blocking: true, run: () => Promise.reject(new Error("kaput")) }
    const report = await runDoctor(doctor.input(), [exploding, DOCTOR_CHECKS[7]])
    expect(report.checks[0]).toMatchObject({ id: "boom", status: "fail", detail: "The check could not run: kaput" })
    expect(report.checks[1]).toMatchObject({ id: "capture-type", status: "pass" })
    expect(report.blocking).toBe(true)
  })
})

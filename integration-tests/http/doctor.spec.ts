/**
 * GET /admin/nexi/doctor end to end: the store of medusa-config.ts on PostgreSQL, a member of
 * staff logged in, the simulator over HTTP. The test store's notificationUrl and return URLs are
 * http://localhost, so those checks fail there and the report blocks going live; the rest of the
 * configuration (API key, APM credentials, the regions' currencies) is accepted.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { NexiDoctorResponse } from "../../src/staff/contract"
import { adminHeaders } from "../support/admin-auth"
import { captureOutput } from "../support/output-capture"
import { SANDBOX_API_KEY, simulatorForSuite } from "../support/simulator"
import { createRegion, seedStoreBasics } from "../support/store"

jest.setTimeout(300_000)

const simulator = simulatorForSuite()

// What the store logs while the check runs: a passing probe must log no false alarm.
const output = captureOutput()
afterAll(() => output.stop())

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    describe("GET /admin/nexi/doctor", () => {
      it("refuses a request without an admin session", async () => {
        const answer = await api.get("/admin/nexi/doctor", { validateStatus: () => true })
        expect(answer.status).toBe(401)
      })

      it("answers the report for the store's card entry, with the regions' currencies", async () => {
        const container = getContainer()
        await simulator.control("POST", "/reset")
        await seedStoreBasics(container)
        await createRegion(container, { name: "Italy", currency_code: "eur", countries: ["it"] })
        await createRegion(container, { name: "Switzerland", currency_code: "chf", countries: ["ch"] })
        const auth = await adminHeaders(container, api)

        const logged = output.chunks().length
        const answer = await api.get("/admin/nexi/doctor", { ...auth, validateStatus: () => true })
        expect(answer.status).toBe(200)
        // The mobile-payment probe's 404 is the answer it asked for: no "transaction not found" warning.
        expect(output.textSince(logged)).not.toMatch(/answered 404 \(transaction not found\)/)
        const report = answer.data as NexiDoctorResponse
        expect(report).toEqual({ checks: expect.any(Array), blocking: true })
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
        for (const check of report.checks) {
          expect(check).toEqual({
            id: expect.any(String),
            title: expect.any(String),
            status: expect.stringMatching(/^(pass|fail|warn)$/),
            detail: expect.any(String),
            ...(check.fix === undefined ? {} : { fix: expect.any(String) }),
          })
        }
        const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]))

        expect(byId["notification-url"].status).toBe("fail")
        expect(byId["notification-url"].detail).toMatch(
          /^notificationUrl http:\/\/localhost(:\d+)? cannot receive the gateway's notifications: it uses http, not https; .*localhost is this machine/,
        )
        expect(byId["notification-url"].fix).toMatch(/public https address on port 443/)
        expect(byId["return-urls"].status).toBe("fail")

        expect(byId["api-key"].status).toBe("pass")
        expect(byId["api-key"].detail).toContain(
          `${simulator.url}/api/phoenix-0.0/psp/api/v1/payment_methods answered 200`,
        )
        expect(byId.environment.status).toBe("warn")
        expect(byId.currencies).toMatchObject({
          status: "pass",
          detail: expect.stringMatching(/^CHF, EUR: every region currency converts/),
        })
        expect(byId["apm-credentials"].status).toBe("pass")
        expect(byId["capture-type"].detail).toMatch(/^EXPLICIT: /)
        expect(byId.wallets).toMatchObject({
          status: "pass",
          detail: expect.stringMatching(/, which the gateway lists/),
        })
        expect(JSON.stringify(report)).not.toContain(SANDBOX_API_KEY)
        expect(JSON.stringify(report)).not.toContain("sim-secret")
      })
    })
  },
})

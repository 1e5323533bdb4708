/** What every endpoint shares: authentication, Correlation-Id, bodies, unknown paths, limits, closing. */
import { randomUUID } from "node:crypto"
import { startSimulator } from "../index"
import { setUpSimulator } from "./support/harness"

const SECOND_KEY = "second-merchant-key"
const harness = setUpSimulator({ apiKeys: ["5d952446-9004-4023-9eae-a527a152846b", SECOND_KEY] })

describe("authentication", () => {
  it("answers 401 without X-API-KEY", async () => {
    const answer = await harness.gateway("GET", "/orders", { apiKey: null })
    expect(answer.status).toBe(401)
    expect(answer.body.errors[0].description).toMatch(/X-API-KEY/)
  })

  it("answers 401 with an unknown key", async () => {
    expect((await harness.gateway("GET", "/orders", { apiKey: "wrong" })).status).toBe(401)
  })

  it("reads header names case-insensitively", async () => {
    const answer = await harness.call("GET", `${harness.sim.gatewayUrl}/payment_methods`, {
      headers: { "x-api-key": "5d952446-9004-4023-9eae-a527a152846b", "CORRELATION-ID": randomUUID() },
    })
    expect(answer.status).toBe(200)
  })

  it("keeps each merchant's orders apart, so the same orderId may be used by two merchants", async () => {
    const first = await harness.hostedOrder({ order: { orderId: "SHARED1" } })
    await harness.hostedOrder({ order: { orderId: "SHARED1" } }, SECOND_KEY)
    expect((await harness.order(first.orderId)).status).toBe(200)
    expect((await harness.order("SHARED1", SECOND_KEY)).status).toBe(200)
    const own = await harness.hostedOrder({ order: { orderId: "ONLYFIRST" } })
    expect((await harness.order(own.orderId, SECOND_KEY)).status).toBe(404)
  })
})

describe("Correlation-Id", () => {
  it("is required", async () => {
    const answer = await harness.gateway("GET", "/orders", { correlationId: null })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/Correlation-Id/)
  })

  it("must be a UUID", async () => {
    const answer = await harness.gateway("GET", "/orders", { correlationId: "not-a-uuid" })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/must be a UUID/)
  })
})

describe("request bodies", () => {
  it("refuses malformed JSON with a clear message", async () => {
    const answer = await harness.gateway("POST", "/orders/hpp", { body: "{ not json" })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/not valid JSON/)
  })

  it("refuses a body that is not JSON", async () => {
    const answer = await harness.gateway("POST", "/orders/hpp", {
      body: "order=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/Content-Type must be application\/json/)
  })

  it("refuses bodies above 1 MiB with 413", async () => {
    const answer = await harness.gateway("POST", "/orders/hpp", { body: { padding: "x".repeat(1024 * 1024 + 10) } })
    expect(answer.status).toBe(413)
    expect(answer.body.errors[0].code).toBe("SIM0413")
  })
})

describe("unknown paths and methods", () => {
  it("answers 404 for an unknown gateway path", async () => {
    const answer = await harness.gateway("GET", "/nothing/here")
    expect(answer.status).toBe(404)
    expect(answer.body.errors[0].code).toBe("SIM0404")
  })

  it("answers 404 outside every family", async () => {
    expect((await harness.call("GET", `${harness.sim.url}/elsewhere`)).status).toBe(404)
  })

  it("answers 405 with Allow for a known path and another method", async () => {
    const answer = await harness.gateway("DELETE", "/orders")
    expect(answer.status).toBe(405)
    expect(answer.headers.get("allow")).toBe("GET")
  })
})

describe("starting and closing", () => {
  it("serves control only when asked to", async () => {
    const sim = await startSimulator({ port: 0 })
    try {
      expect((await fetch(`${sim.controlUrl}/requests`)).status).toBe(404)
    } finally {
      await sim.close()
    }
  })

  it("refuses to start with control on a non-loopback address", async () => {
    await expect(startSimulator({ port: 0, host: "0.0.0.0", control: true })).rejects.toThrow(/loopback/)
  })

  it("closes idle keep-alive connections, so close() returns promptly", async () => {
    const sim = await startSimulator({ port: 0 })
    await (await fetch(`${sim.url}/assets/logos/visa.svg`)).text()
    const started = Date.now()
    await sim.close()
    expect(Date.now() - started).toBeLessThan(1000)
  })
})

/** POST /__sim/faults (status, hang, reset, latency; before and after), global latency and the request log. */
import { randomUUID } from "node:crypto"
import { operationSteps, setUpSimulator } from "./support/harness"

const harness = setUpSimulator()
const CAPTURES = "/api/phoenix-0.0/psp/api/v1/operations/*/captures"

function addFault(fault: unknown) {
  return harness.control("POST", "/faults", fault)
}

describe("request faults", () => {
  it("answers the injected status before executing (phase before, the default)", async () => {
    const authorization = await harness.moto()
    const added = await addFault({
      match: { method: "POST", path: CAPTURES },
      times: 1,
      action: { type: "status", status: 503, body: { down: true } },
    })
    expect(added.body.fault).toMatchObject({ id: expect.any(String), phase: "before", times: 1 })
    const faulted = await harness.postOperation("captures", authorization.operationId, "1000")
    expect(faulted).toMatchObject({ status: 503, body: { down: true } })
    expect(operationSteps((await harness.order(authorization.orderId)).body)).toEqual(["AUTHORIZATION/AUTHORIZED"])
    expect((await harness.postOperation("captures", authorization.operationId, "1000")).status).toBe(200)
  })

  it("executes and then replaces the answer with phase after", async () => {
    const authorization = await harness.moto()
    await addFault({ match: { path: CAPTURES }, phase: "after", action: { type: "status", status: 500 } })
    const faulted = await harness.postOperation("captures", authorization.operationId, "1000")
    expect(faulted.status).toBe(500)
    expect(faulted.body.errors[0].description).toMatch(/injected fault/)
    expect(operationSteps((await harness.order(authorization.orderId)).body)).toEqual([
      "AUTHORIZATION/AUTHORIZED",
      "CAPTURE/EXECUTED",
    ])
  })

  it("applies until cleared when times is omitted, and only to the matching method", async () => {
    await addFault({
      match: { method: "GET", path: "/api/phoenix-0.0/psp/api/v1/orders/*" },
      action: { type: "status", status: 502 },
    })
    expect((await harness.order("ANY1")).status).toBe(502)
    expect((await harness.order("ANY2")).status).toBe(502)
    expect((await harness.gateway("GET", "/orders")).status).toBe(200)
    expect((await harness.control("GET", "/faults")).body.faults).toHaveLength(1)
    await harness.control("DELETE", "/faults")
    expect((await harness.order("ANY3")).status).toBe(404)
  })

  it("destroys the socket with reset", async () => {
    await addFault({
      match: { path: "/api/phoenix-0.0/psp/api/v1/payment_methods" },
      times: 1,
      action: { type: "reset" },
    })
    await expect(harness.gateway("GET", "/payment_methods")).rejects.toThrow()
    expect((await harness.gateway("GET", "/payment_methods")).status).toBe(200)
  })

  it("never answers with hang, until the client gives up", async () => {
    await addFault({
      match: { path: "/api/phoenix-0.0/psp/api/v1/payment_methods" },
      times: 1,
      action: { type: "hang" },
    })
    const started = Date.now()
    await expect(
      fetch(`${harness.sim.gatewayUrl}/payment_methods`, { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow()
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    const log = await harness.control("GET", "/requests")
    expect(log.body.requests.at(-1)).toMatchObject({
      path: "/api/phoenix-0.0/psp/api/v1/payment_methods",
      status: 0,
      fault: "hang",
    })
  })

  it("delays with a latency fault, then answers normally", async () => {
    await addFault({
      match: { path: "/api/phoenix-0.0/psp/api/v1/payment_methods" },
      times: 1,
      action: { type: "latency", ms: 200 },
    })
    const started = Date.now()
    expect((await harness.gateway("GET", "/payment_methods")).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
  })

  it("applies to the hosted page and the APM family too", async () => {
    await addFault({ match: { path: "/hpp/*" }, times: 1, action: { type: "status", status: 503 } })
    await addFault({
      match: { path: "/apm/ms/aapay/v2/transaction/payment/initialize" },
      times: 1,
      action: { type: "status", status: 504 },
    })
    const { hostedPage } = await harness.hostedOrder()
    expect((await harness.call("GET", hostedPage)).status).toBe(503)
    expect(
      (await harness.call("POST", `${harness.sim.apmUrl}/ms/aapay/v2/transaction/payment/initialize`, { body: {} }))
        .status,
    ).toBe(504)
  })

  it.each([
    ["an unknown action", { match: { path: "/x" }, action: { type: "explode" } }],
    ["a path without a leading slash", { match: { path: "x" }, action: { type: "reset" } }],
    ["an unknown member", { match: { path: "/x" }, action: { type: "reset" }, when: "now" }],
    ["a bad phase", { match: { path: "/x" }, phase: "during", action: { type: "reset" } }],
  ])("refuses %s", async (_case, fault) => {
    const answer = await addFault(fault)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/^[a-z.]+: /i)
  })
})

describe("global latency", () => {
  it("delays every instrumented answer and resets to 0", async () => {
    expect((await harness.control("POST", "/latency", { ms: 150 })).body).toEqual({ ms: 150 })
    const started = Date.now()
    await harness.gateway("GET", "/payment_methods")
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    await harness.control("POST", "/reset")
    expect((await harness.control("GET", "/latency")).body).toEqual({ ms: 0 })
  })
})

describe("GET /__sim/requests", () => {
  it("records method, full path, status and the correlation and idempotency keys, and counts them", async () => {
    const authorization = await harness.moto()
    const key = randomUUID()
    const correlationId = randomUUID()
    await harness.gateway("POST", `/operations/${authorization.operationId}/captures?x=1`, {
      idempotencyKey: key,
      correlationId,
      body: { amount: "1000", currency: "EUR" },
    })
    const log = await harness.control("GET", "/requests")
    const capturePath = `/api/phoenix-0.0/psp/api/v1/operations/${authorization.operationId}/captures`
    expect(log.body.requests).toEqual([
      expect.objectContaining({ method: "POST", path: "/api/phoenix-0.0/psp/api/v1/orders/moto", status: 200 }),
      { time: expect.any(String), method: "POST", path: capturePath, status: 200, correlationId, idempotencyKey: key },
    ])
    expect(log.body.counts).toEqual({ "POST /api/phoenix-0.0/psp/api/v1/orders/moto": 1, [`POST ${capturePath}`]: 1 })
  })

  it("never records API keys or card data", async () => {
    await harness.moto()
    const text = JSON.stringify((await harness.control("GET", "/requests")).body)
    expect(text).not.toContain("5d952446")
    expect(text).not.toContain("4999340261977289")
  })

  it("does not record control calls and is cleared by reset", async () => {
    await harness.gateway("GET", "/payment_methods")
    await harness.control("POST", "/reset")
    await harness.control("GET", "/notifications")
    expect((await harness.control("GET", "/requests")).body).toEqual({ requests: [], counts: {} })
  })
})

describe("control routing", () => {
  it("answers 404 for unknown control paths and APM actions", async () => {
    expect((await harness.control("GET", "/nothing")).status).toBe(404)
    expect((await harness.control("POST", "/apm/123/dance")).status).toBe(404)
  })

  it("routes APM actions to the APM family", async () => {
    const answer = await harness.control("POST", "/apm/999999/approve")
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ action: "approve", transactionId: "999999" })
  })
})

import {
  BASE,
  bearer,
  createPayment,
  envelopeOf,
  faultFields,
  JSON_V2,
  makeSimulator,
  paymentBody,
  simRequest,
} from "./apm-test-kit"

describe("APM simulator: credentials and routing", () => {
  const body = paymentBody()
  const merchantOperations = [
    { name: "initialize", method: "POST", path: `${BASE}/payment/initialize` },
    { name: "initializeWithIdempotency", method: "POST", path: `${BASE}/payment/initializeWithIdempotency` },
    { name: "status", method: "GET", path: `${BASE}/7000000001` },
  ]
  const badHeaders = [
    { case: "missing", authorization: undefined, text: "The Authorization header is missing" },
    { case: "not Bearer", authorization: "Basic abc", text: "must be: Bearer" },
    { case: "wrong secret", authorization: bearer("merchant-key", "wrong"), text: "does not carry valid" },
    { case: "unknown key", authorization: bearer("other-key", "merchant-secret"), text: "does not carry valid" },
    {
      case: "raw key:secret without base64",
      authorization: "Bearer merchant-key:merchant-secret",
      text: "does not carry valid",
    },
  ]

  for (const operation of merchantOperations) {
    for (const bad of badHeaders) {
      it(`${operation.name} answers 401 when the Authorization header is ${bad.case}`, async () => {
        const { sim, changes } = makeSimulator()
        const response = await sim.handle(
          simRequest({
            method: operation.method,
            path: operation.path,
            headers: { authorization: bad.authorization, "content-type": JSON_V2, "idempotency-key": "k-1" },
            body,
            rawBody: JSON.stringify(body),
          }),
        )
        expect(response.status).toBe(401)
        expect(response.headers?.["www-authenticate"]).toMatch(/^Bearer/)
        const envelope = envelopeOf(response)
        expect(envelope.valid).toBe(false)
        expect(envelope.error?.message).toBe("Operation not allowed")
        expect(envelope.error?.componsiteFault?.faults?.[0]?.explanationText).toContain(bad.text)
        expect(faultFields(response)).toEqual(["Authorization"])
        expect(changes()).toBe(0)
      })
    }
  }

  it("never echoes the Authorization header in a 401", async () => {
    const { sim } = makeSimulator()
    const wrong = bearer("merchant-key", "leaked-secret")
    const response = await sim.handle(simRequest({ path: `${BASE}/1`, headers: { authorization: wrong } }))
    expect(JSON.stringify(response.body)).not.toContain(wrong.slice(7))
  })

  it("accepts the bearer scheme name in any case", async () => {
    const { sim } = makeSimulator()
    const transactionId = await createPayment(sim)
    const response = await sim.handle(
      simRequest({
        path: `${BASE}/${transactionId}`,
        headers: { authorization: bearer().replace("Bearer", "bearer") },
      }),
    )
    expect(response.status).toBe(200)
  })

  it("answers 404 with an envelope for a path that is no operation", async () => {
    const { sim } = makeSimulator()
    const response = await sim.handle(simRequest({ path: "/ms/aapay/v1/transaction/payment/initialize" }))
    expect(response.status).toBe(404)
    expect(envelopeOf(response).error?.message).toBe("No such operation")
  })

  it("answers 405 with Allow for a known path and the wrong method", async () => {
    const { sim } = makeSimulator()
    const response = await sim.handle(simRequest({ method: "GET", path: `${BASE}/payment/initialize` }))
    expect(response.status).toBe(405)
    expect(response.headers?.allow).toBe("POST")
    expect(envelopeOf(response).valid).toBe(false)
  })

  it("answers 404, not a crash, for a path segment with broken percent-encoding", async () => {
    const { sim } = makeSimulator()
    const page = await sim.handle(simRequest({ path: "/phone/%E0%A4%A" }))
    expect(page.status).toBe(404)
    const status = await sim.handle(simRequest({ path: `${BASE}/%E0%A4%A`, headers: { authorization: bearer() } }))
    expect(status.status).toBe(400)
  })

  it("serves the phone page without credentials, since it is the consumer's app", async () => {
    const { sim } = makeSimulator()
    const transactionId = await createPayment(sim)
    const page = await sim.handle(simRequest({ path: `/phone/${transactionId}` }))
    expect(page.status).toBe(200)
    const approved = await sim.handle(simRequest({ method: "POST", path: `/phone/${transactionId}/approve` }))
    expect(approved.status).toBe(200)
  })
})

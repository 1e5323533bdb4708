/**
 * POST /orders/mit over HTTP: the merchant charges a contract's saved card alone. Only an
 * MIT_* contract may be charged (a CIT one is refused, as the real gateway does), a deactivated
 * or ended one is refused, the Idempotency-Key replays the first answer and refuses another
 * request, and the order lookup finds a charge whose answer was lost.
 */
import { randomUUID } from "node:crypto"
import { DEFAULTS } from "../index"
import { operationSteps, setUpSimulator } from "./support/harness"
import { saveContract } from "./support/saved-contracts"
import { CARDS } from "./support/test-cards"

const OTHER_MERCHANT = "other-merchant"
const harness = setUpSimulator({ apiKeys: [DEFAULTS.apiKey, OTHER_MERCHANT] })
const MIT_PATH = "/api/phoenix-0.0/psp/api/v1/orders/mit"

function mitBody(contractId: string, overrides: { order?: object; captureType?: string } = {}) {
  return {
    order: { orderId: harness.newOrderId(), amount: "2500", currency: "EUR", ...overrides.order },
    contractId,
    ...(overrides.captureType ? { captureType: overrides.captureType } : {}),
  }
}

/** key null: sent without an Idempotency-Key. */
function charge(body: unknown, key: string | null = randomUUID(), apiKey?: string) {
  return harness.gateway("POST", "/orders/mit", { body, idempotencyKey: key ?? undefined, apiKey })
}

describe("POST /orders/mit", () => {
  it("charges an MIT_UNSCHEDULED contract: one BACKOFFICE authorization, no 3-D Secure, the result in the answer", async () => {
    await saveContract(harness, "C1")
    const body = mitBody("C1", { order: { customerId: "cus_alice", description: "Balance of order 42" } })
    const answer = await charge(body)
    expect(answer.status).toBe(200)
    expect(answer.body.operation).toMatchObject({
      orderId: body.order.orderId,
      channel: "BACKOFFICE",
      operationType: "AUTHORIZATION",
      operationResult: "AUTHORIZED",
      operationAmount: "2500",
      operationCurrency: "EUR",
      paymentMethod: "CARD",
      paymentCircuit: "VISA",
      paymentInstrumentInfo: "***7289",
    })
    expect(answer.body.operation.additionalData.threeDS).toBeUndefined()
    const order = await harness.order(body.order.orderId)
    expect(order.body.orderStatus).toMatchObject({ authorizedAmount: "2500", capturedAmount: "0" })
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/AUTHORIZED"])
  })

  it("captures at once with captureType IMPLICIT, and the charge can be refunded like any capture", async () => {
    await saveContract(harness, "C1", { contractType: "MIT_SCHEDULED" })
    const answer = await charge(mitBody("C1", { captureType: "IMPLICIT" }))
    expect(answer.body.operation).toMatchObject({ operationType: "CAPTURE", operationResult: "EXECUTED" })
    const refund = await harness.postOperation("refunds", answer.body.operation.operationId, "500")
    expect(refund.status).toBe(200)
  })

  it("charges a contract saved with a 3-D Secure challenge card without a challenge (nobody is there)", async () => {
    await saveContract(harness, "C1", { card: CARDS.challengeMc })
    const answer = await charge(mitBody("C1"))
    expect(answer.body.operation).toMatchObject({ operationResult: "AUTHORIZED", paymentCircuit: "MC" })
  })

  it("refuses a CIT contract: the cardholder agreed only to pay with it themselves (SIM1005), and records nothing", async () => {
    await saveContract(harness, "C1", { contractType: "CIT" })
    const body = mitBody("C1")
    const answer = await charge(body)
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([
      {
        code: "SIM1005",
        description: expect.stringMatching(/^contractId: contract "C1" is CIT: .*cannot charge it alone$/),
      },
    ])
    expect((await harness.order(body.order.orderId)).status).toBe(404)
  })

  it("refuses a deactivated contract (SIM1006)", async () => {
    await saveContract(harness, "C1")
    expect((await harness.gateway("POST", "/contracts/C1/deactivation")).status).toBe(200)
    const answer = await charge(mitBody("C1"))
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([
      { code: "SIM1006", description: 'contractId: contract "C1" was deactivated; it can no longer be charged' },
    ])
  })

  it("refuses an MIT_SCHEDULED contract after its contractExpiryDate, by the simulator's clock (SIM1007)", async () => {
    const end = new Date(Date.now() + 86_400_000).toISOString()
    await saveContract(harness, "C1", { contractType: "MIT_SCHEDULED", contractExpiryDate: end })
    await harness.control("POST", "/clock", { offsetMs: 2 * 86_400_000 })
    const answer = await charge(mitBody("C1"))
    expect(answer.body.errors).toEqual([
      {
        code: "SIM1007",
        description: `contractId: contract "C1" ended at ${end} (contractExpiryDate); it can no longer be charged`,
      },
    ])
  })

  it("declines a contract whose saved card has expired by the simulator's clock (a charge, not a refusal)", async () => {
    await saveContract(harness, "C1", { card: { ...CARDS.approved, expiryDate: "0130" } })
    await harness.control("POST", "/clock", { offsetMs: Date.parse("2030-03-01T00:00:00Z") - Date.now() })
    const answer = await charge(mitBody("C1"))
    expect(answer.status).toBe(200)
    expect(answer.body.operation).toMatchObject({ operationType: "AUTHORIZATION", operationResult: "DECLINED" })
  })

  it("refuses an unknown contract, another customer's and another merchant's alike (SIM1002)", async () => {
    await saveContract(harness, "C1")
    await saveContract(harness, "C2", { apiKey: OTHER_MERCHANT })
    const unknown = await charge(mitBody("NOPE"))
    const otherCustomer = await charge(mitBody("C1", { order: { customerId: "cus_bob" } }))
    const otherMerchant = await charge(mitBody("C2"))
    expect(unknown.body.errors).toEqual([
      { code: "SIM1002", description: 'contractId: no contract "NOPE" of this merchant' },
    ])
    expect(otherCustomer.body.errors).toEqual([
      { code: "SIM1002", description: 'contractId: no contract "C1" for this customer' },
    ])
    expect(otherMerchant.body.errors[0].code).toBe("SIM1002")
  })

  it("names every bad field at once: a contractId above 18 characters, an amount that is not minor units", async () => {
    const answer = await charge({
      order: { orderId: harness.newOrderId(), amount: "12.50", currency: "EUR" },
      contractId: "x".repeat(19),
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        { code: "PS0036", description: expect.stringMatching(/^order\.amount: /) },
        { code: "SIM0400", description: expect.stringMatching(/^contractId: must be at most 18 characters/) },
      ]),
    )
  })

  it("refuses an order id used before, as every order request does", async () => {
    await saveContract(harness, "C1")
    const first = await charge(mitBody("C1"))
    const again = await charge(mitBody("C1", { order: { orderId: first.body.operation.orderId } }))
    expect(again.body.errors).toEqual([
      expect.objectContaining({ description: expect.stringMatching(/^order\.orderId: .* already used/) }),
    ])
  })

  describe("Idempotency-Key", () => {
    it("is required and must be a UUID (PS0025)", async () => {
      await saveContract(harness, "C1")
      const missing = await charge(mitBody("C1"), null)
      const notUuid = await charge(mitBody("C1"), "key-1")
      expect(missing.body.errors).toEqual([
        { code: "PS0025", description: expect.stringContaining("Idempotency-Key header is missing") },
      ])
      expect(notUuid.body.errors[0].code).toBe("PS0025")
    })

    it("replays the first answer to a retry and charges once, whatever the order of the body's members", async () => {
      await saveContract(harness, "C1")
      const key = randomUUID()
      const body = mitBody("C1")
      const first = await charge(body, key)
      const retry = await charge({ contractId: body.contractId, order: { ...body.order } }, key)
      expect(retry).toMatchObject({ status: 200, body: first.body })
      expect(operationSteps((await harness.order(body.order.orderId)).body)).toEqual(["AUTHORIZATION/AUTHORIZED"])
    })

    it("refuses the key for another request (another amount) and charges nothing more (PS0025)", async () => {
      await saveContract(harness, "C1")
      const key = randomUUID()
      const body = mitBody("C1")
      await charge(body, key)
      const other = await charge({ ...body, order: { ...body.order, amount: "9999" } }, key)
      expect(other.status).toBe(400)
      expect(other.body.errors).toEqual([
        { code: "PS0025", description: expect.stringContaining("was already used for another request") },
      ])
      expect(operationSteps((await harness.order(body.order.orderId)).body)).toEqual(["AUTHORIZATION/AUTHORIZED"])
    })

    it("replays a refusal too, so a retry of a refused charge is refused the same way", async () => {
      await saveContract(harness, "C1", { contractType: "CIT" })
      const key = randomUUID()
      const body = mitBody("C1")
      const first = await charge(body, key)
      expect(await charge(body, key)).toMatchObject({ status: 400, body: first.body })
    })

    it("belongs to the merchant: another merchant's same key charges its own contract", async () => {
      await saveContract(harness, "C1")
      await saveContract(harness, "C1", { apiKey: OTHER_MERCHANT })
      const key = randomUUID()
      const mine = await charge(mitBody("C1"), key)
      const theirs = await charge(mitBody("C1"), key, OTHER_MERCHANT)
      expect(theirs.status).toBe(200)
      expect(theirs.body.operation.operationId).not.toBe(mine.body.operation.operationId)
    })
  })

  describe("faults, as on every endpoint", () => {
    it("a lost answer (after phase): the charge was made, a retry under the key replays it, the lookup finds it", async () => {
      await saveContract(harness, "C1")
      await harness.control("POST", "/faults", {
        match: { path: MIT_PATH },
        times: 1,
        phase: "after",
        action: { type: "status", status: 502 },
      })
      const key = randomUUID()
      const body = mitBody("C1")
      expect((await charge(body, key)).status).toBe(502)
      const found = await harness.order(body.order.orderId)
      expect(operationSteps(found.body)).toEqual(["AUTHORIZATION/AUTHORIZED"])
      const retry = await charge(body, key)
      expect(retry.body.operation.operationId).toBe(found.body.operations[0].operationId)
      expect(operationSteps((await harness.order(body.order.orderId)).body)).toEqual(["AUTHORIZATION/AUTHORIZED"])
    })

    it("a 503 before executing charges nothing, and the retry under the same key charges once", async () => {
      await saveContract(harness, "C1")
      await harness.control("POST", "/faults", {
        match: { method: "POST", path: MIT_PATH },
        times: 1,
        action: { type: "status", status: 503 },
      })
      const key = randomUUID()
      const body = mitBody("C1")
      expect((await charge(body, key)).status).toBe(503)
      expect((await harness.order(body.order.orderId)).status).toBe(404)
      expect((await charge(body, key)).status).toBe(200)
    })

    it("a reset destroys the connection before the charge: nothing is charged", async () => {
      await saveContract(harness, "C1")
      await harness.control("POST", "/faults", { match: { path: MIT_PATH }, times: 1, action: { type: "reset" } })
      const body = mitBody("C1")
      await expect(charge(body)).rejects.toThrow()
      expect((await harness.order(body.order.orderId)).status).toBe(404)
    })

    it("a hang never answers, until the client gives up", async () => {
      await saveContract(harness, "C1")
      await harness.control("POST", "/faults", { match: { path: MIT_PATH }, times: 1, action: { type: "hang" } })
      const request = fetch(harness.sim.gatewayUrl + "/orders/mit", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": DEFAULTS.apiKey,
          "correlation-id": randomUUID(),
          "idempotency-key": randomUUID(),
        },
        body: JSON.stringify(mitBody("C1")),
        signal: AbortSignal.timeout(300),
      })
      await expect(request).rejects.toThrow()
      const log = await harness.control("GET", "/requests")
      expect(log.body.requests.at(-1)).toMatchObject({ path: MIT_PATH, status: 0, fault: "hang" })
    })
  })
})

/** Idempotency-Key on captures and refunds: required, a UUID, and a repeat replays the first answer. */
import { randomUUID } from "node:crypto"
import { operationSteps, setUpSimulator } from "./support/harness"

const harness = setUpSimulator({ apiKeys: ["5d952446-9004-4023-9eae-a527a152846b", "other-merchant"] })

function post(
  kind: "captures" | "refunds",
  operationId: string,
  key: string | undefined,
  amount = "1000",
  apiKey?: string,
) {
  return harness.gateway("POST", `/operations/${operationId}/${kind}`, {
    idempotencyKey: key,
    apiKey,
    body: { amount, currency: "EUR" },
  })
}

describe("Idempotency-Key", () => {
  it.each(["captures", "refunds"] as const)("is required on %s (PS0025)", async (kind) => {
    const authorization = await harness.moto()
    const answer = await post(kind, authorization.operationId, undefined)
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([
      { code: "PS0025", description: expect.stringContaining("Idempotency-Key header is missing") },
    ])
  })

  it("must be a UUID (PS0025)", async () => {
    const authorization = await harness.moto()
    expect((await post("captures", authorization.operationId, "k1")).body.errors[0].code).toBe("PS0025")
  })

  it("replays the first answer and executes nothing on a repeat", async () => {
    const authorization = await harness.moto()
    const key = randomUUID()
    const first = await post("captures", authorization.operationId, key)
    const repeat = await post("captures", authorization.operationId, key)
    expect(repeat.status).toBe(first.status)
    expect(repeat.body).toEqual(first.body)
    expect(operationSteps((await harness.order(authorization.orderId)).body)).toEqual([
      "AUTHORIZATION/AUTHORIZED",
      "CAPTURE/EXECUTED",
    ])
  })

  it("replays a refusal too", async () => {
    const authorization = await harness.moto()
    const key = randomUUID()
    const first = await post("captures", authorization.operationId, key, "5000")
    const repeat = await post("captures", authorization.operationId, key, "1000")
    expect(first.status).toBe(400)
    expect(repeat).toMatchObject({ status: 400, body: first.body })
  })

  it("refunds twice with two keys", async () => {
    const payment = await harness.moto({ captureType: "IMPLICIT" })
    await post("refunds", payment.operationId, randomUUID(), "100")
    await post("refunds", payment.operationId, randomUUID(), "100")
    expect(operationSteps((await harness.order(payment.orderId)).body)).toEqual([
      "CAPTURE/EXECUTED",
      "REFUND/REFUNDED",
      "REFUND/REFUNDED",
    ])
  })

  it("is scoped to the merchant", async () => {
    const key = randomUUID()
    const mine = await harness.moto()
    await post("captures", mine.operationId, key)
    const theirs = await harness.gateway("POST", "/orders/moto", {
      apiKey: "other-merchant",
      body: {
        order: { orderId: harness.newOrderId(), amount: "1000", currency: "EUR" },
        card: { pan: "4999340261977289", expiryDate: "1230" },
      },
    })
    const answer = await post("captures", theirs.body.operation.operationId, key, "1000", "other-merchant")
    expect(answer.status).toBe(200)
    expect((await harness.order(theirs.body.operation.orderId, "other-merchant")).body.orderStatus.capturedAmount).toBe(
      "1000",
    )
  })

  it("survives a fault after execution: the retry gets the executed answer", async () => {
    const authorization = await harness.moto()
    await harness.control("POST", "/faults", {
      match: { method: "POST", path: "/api/phoenix-0.0/psp/api/v1/operations/*/captures" },
      times: 1,
      phase: "after",
      action: { type: "status", status: 503 },
    })
    const key = randomUUID()
    expect((await post("captures", authorization.operationId, key)).status).toBe(503)
    const retry = await post("captures", authorization.operationId, key)
    expect(retry.status).toBe(200)
    expect(operationSteps((await harness.order(authorization.orderId)).body)).toEqual([
      "AUTHORIZATION/AUTHORIZED",
      "CAPTURE/EXECUTED",
    ])
  })
})

/** POST /operations/{id}/cancels: only a CAPTURE, only the same UTC day, only without refunds. */
import { operationSteps, setUpSimulator } from "./support/harness"

const harness = setUpSimulator()
const DAY_MS = 24 * 60 * 60 * 1000

function cancel(operationId: string, body: unknown = { description: "wrong amount" }) {
  return harness.gateway("POST", `/operations/${operationId}/cancels`, { body })
}

describe("POST /operations/{operationId}/cancels", () => {
  it("rolls back a capture: CANCEL/EXECUTED pointing at it, capturedAmount back to 0", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const capture = await harness.postOperation("captures", authorization.operationId, "1000")
    const answer = await cancel(capture.body.operationId)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ operationId: expect.any(String), operationTime: expect.any(String) })
    expect((await harness.operation(answer.body.operationId)).body).toMatchObject({
      operationType: "CANCEL",
      operationResult: "EXECUTED",
      cancelledOperationId: capture.body.operationId,
      operationAmount: "1000",
    })
    const order = await harness.order(authorization.orderId)
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/AUTHORIZED", "CAPTURE/EXECUTED", "CANCEL/EXECUTED"])
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "1000",
      capturedAmount: "0",
      lastOperationType: "CANCEL",
    })
  })

  it("needs no body and no Idempotency-Key", async () => {
    const payment = await harness.moto({ captureType: "IMPLICIT" })
    expect((await harness.gateway("POST", `/operations/${payment.operationId}/cancels`)).status).toBe(200)
  })

  it("refuses anything but a CAPTURE", async () => {
    const authorization = await harness.moto()
    const answer = await cancel(authorization.operationId)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/only a CAPTURE operation can be cancelled/)
  })

  it("refuses a capture made on an earlier (UTC) day with PS0002", async () => {
    await harness.control("POST", "/clock", { offsetMs: -DAY_MS })
    const authorization = await harness.moto()
    const capture = await harness.postOperation("captures", authorization.operationId, "1000")
    await harness.control("POST", "/clock", { offsetMs: 0 })
    const answer = await cancel(capture.body.operationId)
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([
      { code: "PS0002", description: expect.stringContaining("only on the same day") },
    ])
  })

  it("refuses a second cancel of the same capture", async () => {
    const payment = await harness.moto({ captureType: "IMPLICIT" })
    await cancel(payment.operationId)
    expect((await cancel(payment.operationId)).body.errors[0].description).toMatch(/already cancelled/)
  })

  it("refuses a capture with refunds with PS0027", async () => {
    const payment = await harness.moto({ captureType: "IMPLICIT" })
    await harness.postOperation("refunds", payment.operationId, "100")
    expect((await cancel(payment.operationId)).body.errors[0].code).toBe("PS0027")
  })

  it("refuses a description above 255 characters", async () => {
    const payment = await harness.moto({ captureType: "IMPLICIT" })
    const answer = await cancel(payment.operationId, { description: "x".repeat(256) })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/^description: /)
  })

  it("answers 404 for an unknown operation", async () => {
    expect((await cancel("987654321")).status).toBe(404)
  })
})

describe("the clock control", () => {
  it("shifts operation times by the offset", async () => {
    const shifted = await harness.control("POST", "/clock", { offsetMs: -DAY_MS })
    expect(shifted.body.offsetMs).toBe(-DAY_MS)
    const operation = await harness.moto()
    expect(Math.abs(Date.parse(operation.operationTime) - (Date.now() - DAY_MS))).toBeLessThan(5000)
  })

  it("refuses a non-integer offset", async () => {
    expect((await harness.control("POST", "/clock", { offsetMs: "yesterday" })).status).toBe(400)
  })
})

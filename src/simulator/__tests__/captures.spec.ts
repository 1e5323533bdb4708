/** POST /operations/{id}/captures: one capture per authorization, up to the authorized amount. */
import { randomUUID } from "node:crypto"
import { operationSteps, setUpSimulator } from "./support/harness"

const harness = setUpSimulator()

describe("POST /operations/{operationId}/captures", () => {
  it("captures an authorization and answers { operationId, operationTime }", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const answer = await harness.postOperation("captures", authorization.operationId, "1000")
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      operationId: expect.stringMatching(/^\d+$/),
      operationTime: expect.stringMatching(/Z$/),
    })
    const capture = await harness.operation(answer.body.operationId)
    expect(capture.body).toMatchObject({
      orderId: authorization.orderId,
      operationType: "CAPTURE",
      operationResult: "EXECUTED",
      channel: "BACKOFFICE",
      operationAmount: "1000",
      operationCurrency: "EUR",
      paymentCircuit: "VISA",
      paymentInstrumentInfo: "***7289",
      cancelledOperationId: "",
      operationTime: answer.body.operationTime,
    })
    const order = await harness.order(authorization.orderId)
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/AUTHORIZED", "CAPTURE/EXECUTED"])
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "1000",
      capturedAmount: "1000",
      lastOperationType: "CAPTURE",
      lastOperationTime: answer.body.operationTime,
    })
  })

  it("captures part of the authorization", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    expect((await harness.postOperation("captures", authorization.operationId, "400")).status).toBe(200)
    expect((await harness.order(authorization.orderId)).body.orderStatus.capturedAmount).toBe("400")
  })

  it("refuses a second capture with PS0023, even after a partial one", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    await harness.postOperation("captures", authorization.operationId, "400")
    const second = await harness.postOperation("captures", authorization.operationId, "600")
    expect(second.status).toBe(400)
    expect(second.body.errors).toEqual([
      {
        code: "PS0023",
        description: expect.stringContaining("an authorization accepts one capture, partial or total"),
      },
    ])
  })

  it("refuses a capture on a capture operation with PS0023", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const { body } = await harness.postOperation("captures", authorization.operationId, "1000")
    const again = await harness.postOperation("captures", body.operationId, "1000")
    expect(again.body.errors[0].code).toBe("PS0023")
  })

  it("refuses to capture an implicitly captured payment with PS0023", async () => {
    const payment = await harness.moto({ captureType: "IMPLICIT" })
    const answer = await harness.postOperation("captures", payment.operationId, "1000")
    expect(answer.body.errors[0]).toEqual({
      code: "PS0023",
      description: expect.stringContaining("captureType IMPLICIT"),
    })
  })

  it("refuses a capture after a void with PS0022", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const voided = await harness.postOperation("refunds", authorization.operationId, "1000")
    expect((await harness.operation(voided.body.operationId)).body.operationType).toBe("VOID")
    for (const target of [authorization.operationId, voided.body.operationId]) {
      const answer = await harness.postOperation("captures", target, "1000")
      expect(answer.status).toBe(400)
      expect(answer.body.errors[0].code).toBe("PS0022")
    }
  })

  it("refuses a capture after a refund with PS0024", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const capture = await harness.postOperation("captures", authorization.operationId, "1000")
    const refund = await harness.postOperation("refunds", capture.body.operationId, "100")
    expect((await harness.postOperation("captures", authorization.operationId, "100")).body.errors[0].code).toBe(
      "PS0024",
    )
    expect((await harness.postOperation("captures", refund.body.operationId, "100")).body.errors[0].code).toBe("PS0024")
  })

  it("refuses more than the authorized amount", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const answer = await harness.postOperation("captures", authorization.operationId, "1001")
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/^amount: capture of 1001 is above the authorized amount 1000/)
  })

  it("refuses a declined authorization", async () => {
    const declined = await harness.moto({ card: { pan: "5515931855858729", expiryDate: "1230" } })
    const answer = await harness.postOperation("captures", declined.operationId, "1000")
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/only an authorized payment can be captured/)
  })

  it.each([
    ["a non-numeric amount", { amount: "10.00", currency: "EUR" }, "PS0036", /^amount: /],
    ["a missing amount", { currency: "EUR" }, "PS0036", /^amount: is required/],
    ["a missing currency", { amount: "100" }, "SIM0400", /^currency: is required/],
    ["an unknown currency", { amount: "100", currency: "EUX" }, "SIM0400", /^currency: "EUX" is not an ISO 4217/],
    ["another currency than the payment's", { amount: "100", currency: "USD" }, "SIM0400", /^currency: must be EUR/],
    ["a zero amount", { amount: "0", currency: "EUR" }, "SIM0400", /^amount: must be above 0/],
    [
      "a description above 255 characters",
      { amount: "100", currency: "EUR", description: "x".repeat(256) },
      "SIM0400",
      /^description: /,
    ],
  ])("refuses %s", async (_case, body, code, message) => {
    const authorization = await harness.moto({ amount: "1000" })
    const answer = await harness.gateway("POST", `/operations/${authorization.operationId}/captures`, {
      idempotencyKey: randomUUID(),
      body,
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].code).toBe(code)
    expect(answer.body.errors[0].description).toMatch(message)
  })

  it("answers 404 for an unknown operation", async () => {
    const answer = await harness.postOperation("captures", "123456789", "100")
    expect(answer.status).toBe(404)
  })

  it("can capture again after the capture was cancelled", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const first = await harness.postOperation("captures", authorization.operationId, "1000")
    await harness.gateway("POST", `/operations/${first.body.operationId}/cancels`, { body: {} })
    expect((await harness.postOperation("captures", authorization.operationId, "700")).status).toBe(200)
    expect((await harness.order(authorization.orderId)).body.orderStatus.capturedAmount).toBe("700")
  })
})

/** POST /operations/{id}/refunds: refunds up to the captured amount, voids of uncaptured authorizations, pending settlement. */

import { operationSteps, setUpSimulator } from "./support/harness"
import { type Receiver, startReceiver } from "./support/receiver"
import { CARDS } from "./support/test-cards"

const harness = setUpSimulator()

async function captured(amount = "1000") {
  const authorization = await harness.moto({ amount })
  const capture = await harness.postOperation("captures", authorization.operationId, amount)
  return { authorization, captureId: capture.body.operationId as string }
}

describe("refunds of a capture", () => {
  it("refunds partially and repeatedly, pointing at the capture", async () => {
    const { authorization, captureId } = await captured()
    const first = await harness.postOperation("refunds", captureId, "300")
    const second = await harness.postOperation("refunds", captureId, "700")
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    const refund = await harness.operation(first.body.operationId)
    expect(refund.body).toMatchObject({
      operationType: "REFUND",
      operationResult: "REFUNDED",
      channel: "BACKOFFICE",
      operationAmount: "300",
      cancelledOperationId: captureId,
    })
    const order = await harness.order(authorization.orderId)
    expect(operationSteps(order.body)).toEqual([
      "AUTHORIZATION/AUTHORIZED",
      "CAPTURE/EXECUTED",
      "REFUND/REFUNDED",
      "REFUND/REFUNDED",
    ])
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "1000",
      capturedAmount: "1000",
      lastOperationType: "REFUND",
    })
  })

  it("refuses more than what is left with PS0029", async () => {
    const { captureId } = await captured()
    await harness.postOperation("refunds", captureId, "600")
    const answer = await harness.postOperation("refunds", captureId, "500")
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([
      { code: "PS0029", description: expect.stringContaining("400 of the captured 1000") },
    ])
  })

  it("refuses a refund of a fully refunded capture with PS0027", async () => {
    const { captureId } = await captured()
    await harness.postOperation("refunds", captureId, "1000")
    expect((await harness.postOperation("refunds", captureId, "1")).body.errors[0].code).toBe("PS0027")
  })

  it("refunds through the authorization too, against its capture", async () => {
    const { authorization, captureId } = await captured()
    const answer = await harness.postOperation("refunds", authorization.operationId, "250")
    expect((await harness.operation(answer.body.operationId)).body).toMatchObject({
      operationType: "REFUND",
      cancelledOperationId: captureId,
    })
  })

  it("refunds an implicitly captured payment", async () => {
    const payment = await harness.moto({ amount: "800", captureType: "IMPLICIT" })
    const answer = await harness.postOperation("refunds", payment.operationId, "800")
    expect((await harness.operation(answer.body.operationId)).body).toMatchObject({
      operationType: "REFUND",
      cancelledOperationId: payment.operationId,
    })
  })

  it("refuses a refund on a refund", async () => {
    const { captureId } = await captured()
    const refund = await harness.postOperation("refunds", captureId, "100")
    const answer = await harness.postOperation("refunds", refund.body.operationId, "100")
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/refund a capture or void an authorization/)
  })

  it("answers 404 for an unknown operation", async () => {
    expect((await harness.postOperation("refunds", "404404404", "100")).status).toBe(404)
  })
})

describe("voids (refund of an uncaptured authorization)", () => {
  it("records VOID/VOIDED for the full amount and authorizes nothing any more", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const answer = await harness.postOperation("refunds", authorization.operationId, "1000")
    expect(answer.status).toBe(200)
    expect((await harness.operation(answer.body.operationId)).body).toMatchObject({
      operationType: "VOID",
      operationResult: "VOIDED",
      operationAmount: "1000",
      cancelledOperationId: authorization.operationId,
    })
    const order = await harness.order(authorization.orderId)
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/AUTHORIZED", "VOID/VOIDED"])
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "0",
      capturedAmount: "0",
      lastOperationType: "VOID",
    })
  })

  it("refuses a second void and a refund after the void with PS0028", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const voided = await harness.postOperation("refunds", authorization.operationId, "1000")
    expect((await harness.postOperation("refunds", authorization.operationId, "1000")).body.errors[0].code).toBe(
      "PS0028",
    )
    expect((await harness.postOperation("refunds", voided.body.operationId, "1000")).body.errors[0].code).toBe("PS0028")
  })

  it("refuses a partial void, naming the full amount", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    const answer = await harness.postOperation("refunds", authorization.operationId, "400")
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/full authorized amount 1000/)
  })

  it("refuses a void above the authorized amount with PS0029", async () => {
    const authorization = await harness.moto({ amount: "1000" })
    expect((await harness.postOperation("refunds", authorization.operationId, "1001")).body.errors[0].code).toBe(
      "PS0029",
    )
  })

  it("voids an authorization whose capture was cancelled", async () => {
    const { authorization, captureId } = await captured()
    await harness.gateway("POST", `/operations/${captureId}/cancels`, { body: {} })
    const refundOfCancelled = await harness.postOperation("refunds", captureId, "1000")
    expect(refundOfCancelled.body.errors[0].description).toMatch(/was cancelled; refund operation \d+ to void/)
    const voided = await harness.postOperation("refunds", authorization.operationId, "1000")
    expect((await harness.operation(voided.body.operationId)).body.operationType).toBe("VOID")
  })
})

describe("pending refunds", () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())

  async function hostedCapture() {
    const hosted = await harness.hostedOrder({
      paymentSession: { notificationUrl: receiver.url, captureType: "IMPLICIT" },
    })
    const paid = await harness.payHosted(hosted.orderId, CARDS.approved)
    return { hosted, captureId: paid.body.operations[1].operationId as string }
  }

  it("stay PENDING until settled, then notify the merchant", async () => {
    expect((await harness.control("POST", "/settings/refunds", { mode: "pending" })).body).toEqual({ mode: "pending" })
    const { hosted, captureId } = await hostedCapture()
    const refund = await harness.postOperation("refunds", captureId, "500")
    expect((await harness.operation(refund.body.operationId)).body.operationResult).toBe("PENDING")
    // A pending refund counts against what is left to refund.
    expect((await harness.postOperation("refunds", captureId, "1500")).body.errors[0].code).toBe("PS0029")
    receiver.received.length = 0
    const settled = await harness.control("POST", "/refunds/settle", {})
    expect(settled.body.settled).toEqual([
      {
        operation: expect.objectContaining({ operationId: refund.body.operationId, operationResult: "REFUNDED" }),
        notification: { url: receiver.url, status: 200 },
      },
    ])
    expect((await harness.operation(refund.body.operationId)).body.operationResult).toBe("REFUNDED")
    expect(receiver.received.map(({ body }) => [body.securityToken, body.operation.operationResult])).toEqual([
      [hosted.securityToken, "REFUNDED"],
    ])
  })

  it("settle on their own after settleAfterMs", async () => {
    await harness.control("POST", "/settings/refunds", { mode: "pending", settleAfterMs: 50 })
    const { captureId } = await hostedCapture()
    const refund = await harness.postOperation("refunds", captureId, "500")
    expect((await harness.operation(refund.body.operationId)).body.operationResult).toBe("PENDING")
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect((await harness.operation(refund.body.operationId)).body.operationResult).toBe("REFUNDED")
  })

  it("go back to immediate on reset", async () => {
    await harness.control("POST", "/settings/refunds", { mode: "pending" })
    await harness.control("POST", "/reset")
    expect((await harness.control("GET", "/settings/refunds")).body).toEqual({ mode: "immediate" })
  })

  it("refuses an unknown settlement mode", async () => {
    expect((await harness.control("POST", "/settings/refunds", { mode: "later" })).status).toBe(400)
  })
})

/** POST /orders/moto and /orders/card_verification: same card rules as the hosted page, no 3DS. */
import { operationSteps, setUpSimulator } from "./support/harness"
import { CARDS } from "./support/test-cards"

const harness = setUpSimulator()

function moto(card: object, extra: Record<string, unknown> = {}) {
  return harness.gateway("POST", "/orders/moto", {
    body: { order: { orderId: harness.newOrderId(), amount: "2500", currency: "EUR" }, card, ...extra },
  })
}

function verify(card: object, amount = "0") {
  return harness.gateway("POST", "/orders/card_verification", {
    body: { order: { orderId: harness.newOrderId(), amount, currency: "EUR" }, card },
  })
}

describe("POST /orders/moto", () => {
  it("authorizes by default (EXPLICIT): one AUTHORIZATION/AUTHORIZED, BACKOFFICE, with the TRA001 warning", async () => {
    const answer = await moto(CARDS.approved)
    expect(answer.status).toBe(200)
    const { operation } = answer.body
    expect(operation).toMatchObject({
      operationType: "AUTHORIZATION",
      operationResult: "AUTHORIZED",
      channel: "BACKOFFICE",
      paymentMethod: "CARD",
      paymentCircuit: "VISA",
      paymentInstrumentInfo: "***7289",
      operationAmount: "2500",
      operationCurrency: "EUR",
      cancelledOperationId: "",
      warnings: [{ code: "TRA001", description: expect.stringContaining("MOTO") }],
    })
    expect(operation.additionalData.threeDS).toBeUndefined()
    const order = await harness.order(operation.orderId)
    expect(order.body.operations).toEqual([operation])
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "2500",
      capturedAmount: "0",
      lastOperationType: "AUTHORIZATION",
    })
  })

  it("captures at once with IMPLICIT", async () => {
    const answer = await moto(CARDS.approved, { captureType: "IMPLICIT" })
    expect(answer.body.operation).toMatchObject({ operationType: "CAPTURE", operationResult: "EXECUTED" })
    const order = await harness.order(answer.body.operation.orderId)
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "2500",
      capturedAmount: "2500",
      lastOperationType: "CAPTURE",
    })
  })

  it.each([
    ["a challenge card (no shopper to challenge)", CARDS.challenge, "AUTHORIZED"],
    ["a declined card", CARDS.declined, "DECLINED"],
    ["a 3DS-failure card", CARDS.threeDSFailed, "THREEDS_FAILED"],
  ])("answers 200 with the outcome for %s", async (_case, card, result) => {
    const answer = await moto(card)
    expect(answer.status).toBe(200)
    expect(answer.body.operation.operationResult).toBe(result)
  })

  it("accepts a card without CVV", async () => {
    expect((await moto({ pan: CARDS.approved.pan, expiryDate: "1230" })).status).toBe(200)
  })

  it.each([
    ["a non-Luhn number", CARDS.notLuhn, /^card\.pan: /],
    ["a past expiry", CARDS.expired, /^card\.expiryDate: the card expired/],
    ["an expiry not in mmyy", { pan: CARDS.approved.pan, expiryDate: "12/2030" }, /^card\.expiryDate: must be mmyy/],
    ["a missing card", undefined, /^card: is required/],
  ])("refuses %s", async (_case, card, message) => {
    const answer = await moto(card as object)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(message)
  })

  it("refuses a captureType outside the enum", async () => {
    const answer = await moto(CARDS.approved, { captureType: "SOMETIMES" })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(/^captureType: /)
  })

  it("refuses an orderId already used", async () => {
    const first = await moto(CARDS.approved)
    const again = await harness.gateway("POST", "/orders/moto", {
      body: { order: { orderId: first.body.operation.orderId, amount: "100", currency: "EUR" }, card: CARDS.approved },
    })
    expect(again.status).toBe(400)
    expect(again.body.errors[0].description).toMatch(/already used/)
  })
})

describe("POST /orders/card_verification", () => {
  it("verifies with amount 0: AUTHORIZATION/EXECUTED, nothing authorized", async () => {
    const answer = await verify(CARDS.approved)
    expect(answer.status).toBe(200)
    expect(answer.body.operation).toMatchObject({
      operationType: "AUTHORIZATION",
      operationResult: "EXECUTED",
      operationAmount: "0",
    })
    const order = await harness.order(answer.body.operation.orderId)
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/EXECUTED"])
    expect(order.body.orderStatus).toMatchObject({ authorizedAmount: "0", capturedAmount: "0" })
  })

  it.each([
    ["a declined card", CARDS.declined],
    ["a 3DS-failure card", CARDS.threeDSFailed],
  ])("answers DECLINED for %s", async (_case, card) => {
    expect((await verify(card)).body.operation.operationResult).toBe("DECLINED")
  })

  it("requires pan and expiryDate", async () => {
    const answer = await verify({ pan: CARDS.approved.pan })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toBe("card.expiryDate: is required (string)")
  })

  it("cannot be captured", async () => {
    const { operation } = (await verify(CARDS.approved)).body
    const capture = await harness.postOperation("captures", operation.operationId, "1")
    expect(capture.status).toBe(400)
  })
})

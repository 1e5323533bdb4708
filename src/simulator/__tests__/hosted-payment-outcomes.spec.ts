/**
 * The hosted payment's outcomes by test card, played through POST /__sim/hpp/{orderId}/pay
 * and /cancel (the page's own code path), and the operations each leaves on the order.
 */

import { operationSteps, setUpSimulator } from "./support/harness"
import { type Receiver, startReceiver } from "./support/receiver"
import { CARDS } from "./support/test-cards"

const harness = setUpSimulator()
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())
beforeEach(() => {
  receiver.received.length = 0
})

async function payAndRead(
  card: object,
  options: { session?: Record<string, unknown>; extra?: Record<string, unknown> } = {},
) {
  const hosted = await harness.hostedOrder({ paymentSession: { notificationUrl: receiver.url, ...options.session } })
  const paid = await harness.payHosted(hosted.orderId, card, options.extra)
  const order = await harness.order(hosted.orderId)
  return { hosted, paid, order }
}

describe("outcomes by card (captureType EXPLICIT, the default)", () => {
  it.each([
    [
      "an approved card",
      CARDS.approved,
      {},
      ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"],
      "FRICTIONLESS",
    ],
    [
      "another Luhn-valid card",
      CARDS.otherVisa,
      {},
      ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"],
      "FRICTIONLESS",
    ],
    [
      "a challenge card, challenge passed",
      CARDS.challenge,
      { challenge: "pass" },
      ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"],
      "CHALLENGE",
    ],
    [
      "a challenge card, challenge failed",
      CARDS.challengeMc,
      { challenge: "fail" },
      ["AUTHORIZATION/THREEDS_FAILED"],
      "FAILED",
    ],
    [
      "a declined card",
      CARDS.declined,
      {},
      ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/DECLINED"],
      "FRICTIONLESS",
    ],
    ["a 3DS-failure card", CARDS.threeDSFailed, {}, ["AUTHORIZATION/THREEDS_FAILED"], "FAILED"],
  ])("%s", async (_case, card, extra, steps, threeDS) => {
    const { paid, order } = await payAndRead(card, { extra })
    expect(paid.status).toBe(200)
    expect(operationSteps(order.body)).toEqual(steps)
    expect(paid.body.operations).toEqual(order.body.operations)
    expect(paid.body.result).toBe(steps.at(-1)!.split("/")[1])
    expect(paid.body.redirectUrl).toBe("https://shop.example/result")
    for (const operation of order.body.operations) {
      expect(operation).toMatchObject({
        channel: "ECOMMERCE",
        paymentMethod: "CARD",
        operationAmount: "1999",
        operationCurrency: "EUR",
        cancelledOperationId: "",
      })
      expect(operation.additionalData.threeDS).toBe(threeDS)
      expect(operation.paymentInstrumentInfo).toBe(`***${(card as { pan: string }).pan.slice(-4)}`)
    }
  })

  it("keeps the order status true after an authorization", async () => {
    const { order } = await payAndRead(CARDS.approvedMc)
    const last = order.body.operations.at(-1)
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "1999",
      capturedAmount: "0",
      lastOperationType: "AUTHORIZATION",
      lastOperationTime: last.operationTime,
    })
    expect(last.paymentCircuit).toBe("MC")
    expect(last.additionalData).toEqual({
      authorizationCode: expect.stringMatching(/^\d{6}$/),
      cardCountry: "ITA",
      threeDS: "FRICTIONLESS",
    })
  })

  it("authorizes nothing after a decline", async () => {
    const { order } = await payAndRead(CARDS.declined)
    expect(order.body.orderStatus).toMatchObject({ authorizedAmount: "0", capturedAmount: "0" })
    expect(order.body.operations.at(-1).additionalData.authorizationCode).toBeUndefined()
  })

  it("pays the session amount, which may be below the order amount", async () => {
    const { order } = await payAndRead(CARDS.approved, { session: { amount: "1500" } })
    expect(order.body.orderStatus.authorizedAmount).toBe("1500")
  })
})

describe("captureType IMPLICIT and actionType", () => {
  it("captures at once: CAPTURE/EXECUTED", async () => {
    const { order } = await payAndRead(CARDS.approved, { session: { captureType: "IMPLICIT" } })
    expect(operationSteps(order.body)).toEqual(["CAPTURE/THREEDS_VALIDATED", "CAPTURE/EXECUTED"])
    expect(order.body.orderStatus).toMatchObject({
      authorizedAmount: "1999",
      capturedAmount: "1999",
      lastOperationType: "CAPTURE",
    })
  })

  it("PREAUTH leaves an authorization even with IMPLICIT", async () => {
    const { order } = await payAndRead(CARDS.approved, { session: { captureType: "IMPLICIT", actionType: "PREAUTH" } })
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"])
  })

  it("VERIFY moves no money: AUTHORIZATION/EXECUTED", async () => {
    const { order } = await payAndRead(CARDS.approved, { session: { actionType: "VERIFY" } })
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/EXECUTED"])
    expect(order.body.orderStatus).toMatchObject({ authorizedAmount: "0", capturedAmount: "0" })
  })
})

describe("cancel", () => {
  it("records CANCELED and sends the shopper to cancelUrl", async () => {
    const hosted = await harness.hostedOrder({ paymentSession: { notificationUrl: receiver.url } })
    const cancelled = await harness.control("POST", `/hpp/${hosted.orderId}/cancel`)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ result: "CANCELED", redirectUrl: "https://shop.example/cancel" })
    expect(operationSteps((await harness.order(hosted.orderId)).body)).toEqual(["AUTHORIZATION/CANCELED"])
  })

  it("during the challenge keeps the masked card on the CANCELED operation", async () => {
    const hosted = await harness.hostedOrder()
    const page = new URL(hosted.hostedPage)
    const form = new URLSearchParams({ pan: CARDS.challenge.pan, expiry: "05/30", cvv: CARDS.challenge.cvv })
    const submitted = await harness.call("POST", `${harness.sim.url}/hpp/${hosted.orderId}/pay${page.search}`, {
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    })
    expect(submitted.status).toBe(303)
    const cancelled = await harness.control("POST", `/hpp/${hosted.orderId}/cancel`)
    expect(cancelled.body.operations[0]).toMatchObject({
      operationResult: "CANCELED",
      paymentInstrumentInfo: "***4549",
    })
  })
})

describe("a finished payment", () => {
  it.each([
    ["paid", (orderId: string) => harness.payHosted(orderId, CARDS.approved)],
    ["declined", (orderId: string) => harness.payHosted(orderId, CARDS.declined)],
    ["cancelled", (orderId: string) => harness.control("POST", `/hpp/${orderId}/cancel`)],
  ])("refuses a second payment once %s", async (_state, finish) => {
    const { orderId } = await harness.hostedOrder()
    await finish(orderId)
    const again = await harness.payHosted(orderId, CARDS.approved)
    expect(again.status).toBe(409)
    expect(again.body.errors[0].description).toMatch(/already paid, failed or cancelled/)
    expect((await harness.control("POST", `/hpp/${orderId}/cancel`)).status).toBe(409)
  })
})

describe("card checks", () => {
  it.each([
    ["a number failing the Luhn check", CARDS.notLuhn, /^pan: .*check digit/],
    ["a past expiry", CARDS.expired, /^expiryDate: the card expired/],
    ["a missing CVV", { pan: CARDS.approved.pan, expiryDate: "1230" }, /^cvv: is required/],
    ["an unknown circuit", { pan: "9999999999999995", expiryDate: "1230", cvv: "123" }, /^pan: .*no circuit/],
  ])("refuses %s and leaves the order open", async (_case, card, message) => {
    const { orderId } = await harness.hostedOrder()
    const refused = await harness.payHosted(orderId, card)
    expect(refused.status).toBe(400)
    expect(refused.body.errors[0].description).toMatch(message)
    expect((await harness.payHosted(orderId, CARDS.approved)).status).toBe(200)
  })

  it("accepts an AMEX card with a four-digit CVV", async () => {
    const { paid } = await payAndRead(CARDS.otherAmex)
    expect(paid.body.operations[1]).toMatchObject({ operationResult: "AUTHORIZED", paymentCircuit: "AMEX" })
  })

  it("answers 404 for an unknown hosted order", async () => {
    expect((await harness.payHosted("NOSUCHORDER", CARDS.approved)).status).toBe(404)
  })
})

describe("notifications", () => {
  it("POSTs { eventId, eventTime, securityToken, operation } of the final operation and reports the delivery", async () => {
    const { hosted, paid } = await payAndRead(CARDS.challenge, { extra: { challenge: "pass" } })
    expect(paid.body.notification).toEqual({ url: receiver.url, status: 200 })
    expect(receiver.received).toHaveLength(1)
    const { body } = receiver.received[0]
    expect(body).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      eventTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      securityToken: hosted.securityToken,
      operation: paid.body.operations[1],
    })
    const recorded = await harness.control("GET", "/notifications")
    expect(recorded.body.notifications).toEqual([
      { time: expect.any(String), url: receiver.url, body, status: 200, attempt: 1 },
    ])
  })

  it("records the merchant's answer status, even an error", async () => {
    receiver.answerWith(500)
    try {
      const { paid } = await payAndRead(CARDS.declined)
      expect(paid.body.notification).toEqual({ url: receiver.url, status: 500 })
    } finally {
      receiver.answerWith(200)
    }
  })

  it("records a failed delivery with its error", async () => {
    const hosted = await harness.hostedOrder({ paymentSession: { notificationUrl: "http://127.0.0.1:9/unreachable" } })
    const paid = await harness.payHosted(hosted.orderId, CARDS.approved)
    expect(paid.body.notification).toEqual({ url: "http://127.0.0.1:9/unreachable", error: expect.any(String) })
  })

  it("does not wait when awaitNotification is false, and flush waits", async () => {
    const { paid } = await payAndRead(CARDS.approved, { extra: { awaitNotification: false } })
    expect(paid.body.notification).toEqual({ queued: true })
    const flushed = await harness.control("POST", "/notifications/flush")
    expect(flushed.body.notifications).toHaveLength(1)
    expect(receiver.received).toHaveLength(1)
  })

  it("sends nothing without a notificationUrl", async () => {
    const { orderId } = await harness.hostedOrder()
    const paid = await harness.payHosted(orderId, CARDS.approved)
    expect(paid.body.notification).toBeNull()
    expect((await harness.control("GET", "/notifications")).body.notifications).toEqual([])
  })
})

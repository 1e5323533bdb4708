/**
 * XPay Build over HTTP: POST /orders/build and its refusals, the fields' own endpoints (what
 * field.html sends), finalize by test card with the operations and the notification each
 * leaves, the 3-D Secure challenge page, state, cancel, card data, integrity and expiry.
 */
import { createHash } from "node:crypto"
import {
  BuildCardDataSchema,
  BuildResponseSchema,
  BuildStateResponseSchema,
  type Notification,
} from "../../gateway/schemas"
import { DEFAULTS } from ".."
import { BUILD_SESSION_TTL_MS } from "../card-fields/sessions"
import { type Answer, operationSteps, setUpSimulator } from "./support/harness"
import { type Receiver, startReceiver } from "./support/receiver"
import { CARDS } from "./support/test-cards"

const OTHER_MERCHANT_KEY = "second-merchant-key"
const harness = setUpSimulator({ apiKeys: [DEFAULTS.apiKey, OTHER_MERCHANT_KEY] })
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())
beforeEach(() => {
  receiver.received.length = 0
})

const MERCHANT_URL = "https://shop.example"

function buildRequest(
  overrides: { order?: object; paymentSession?: object; top?: object } = {},
): Record<string, unknown> {
  return {
    merchantUrl: MERCHANT_URL,
    order: { orderId: harness.newOrderId(), amount: "1999", currency: "EUR", ...overrides.order },
    paymentSession: {
      actionType: "PAY",
      amount: "1999",
      language: "ita",
      resultUrl: "https://shop.example/result",
      cancelUrl: "https://shop.example/cancel",
      notificationUrl: receiver.url,
      ...overrides.paymentSession,
    },
    ...overrides.top,
  }
}

async function openSession(overrides: Parameters<typeof buildRequest>[0] = {}) {
  const request = buildRequest(overrides)
  const answer = await harness.gateway("POST", "/orders/build", { body: request })
  expect(answer.status).toBe(200)
  const body = BuildResponseSchema.parse(answer.body)
  return { ...body, orderId: (request.order as { orderId: string }).orderId }
}

function fields(path: "check" | "confirm", body: unknown): Promise<Answer> {
  return harness.call("POST", `${harness.sim.url}/fields/${path}`, { body })
}

function confirmCard(sid: string, card: { pan: string; expiryDate: string; cvv: string }): Promise<Answer> {
  const values = {
    CARD_NUMBER: card.pan,
    EXPIRATION_DATE: `${card.expiryDate.slice(0, 2)}/${card.expiryDate.slice(2)}`,
    SECURITY_CODE: card.cvv,
    CARDHOLDER_NAME: "Ada Lovelace",
  }
  return fields("confirm", { sid, values })
}

const finalize = (sessionId: string, apiKey?: string) =>
  harness.gateway("POST", "/build/finalize_payment", { body: { sessionId }, apiKey })
const stateOf = (sessionId: string) => harness.gateway("GET", `/build/state?sessionId=${encodeURIComponent(sessionId)}`)

async function notifications(): Promise<Notification[]> {
  await harness.control("POST", "/notifications/flush")
  return receiver.received.map(({ body }) => body)
}

describe("POST /orders/build", () => {
  it("opens a session with the four card fields, each the simulator's page for one field", async () => {
    const session = await openSession()
    expect(session.fields.map(({ id }) => id)).toEqual([
      "CARD_NUMBER",
      "EXPIRATION_DATE",
      "SECURITY_CODE",
      "CARDHOLDER_NAME",
    ])
    for (const field of session.fields) {
      expect(field).toMatchObject({ type: "TEXT", class: "CARD_FIELD" })
      expect(field.src).toBe(
        `${harness.sim.publicUrl}/field.html?id=${field.id}&sid=${encodeURIComponent(session.sessionId)}`,
      )
    }
    const page = await harness.call("GET", session.fields[0].src)
    expect(page.status).toBe(200)
    expect(page.body).toContain('aria-label="Numero della carta"')
    expect(page.body).toContain(JSON.stringify(MERCHANT_URL))

    const state = BuildStateResponseSchema.parse((await stateOf(session.sessionId)).body)
    expect(state.state).toBe("CARD_DATA_COLLECTION")
    expect(state.fieldSet?.fields).toEqual(session.fields)
    expect((await harness.order(session.orderId)).body.operations).toEqual([])
  })

  it.each([
    ["an amount in major units", { order: { amount: "19.99" } }, "PS0036", "order.amount"],
    ["an unknown currency", { order: { currency: "EUX" } }, "SIM0400", "order.currency"],
    ["a session amount above the order's", { paymentSession: { amount: "2000" } }, "PS0007", "paymentSession.amount"],
    [
      "a resultUrl that is no URL",
      { paymentSession: { resultUrl: "shop/result" } },
      "GW0001",
      "paymentSession.resultUrl",
    ],
    ["an orderId longer than 18", { order: { orderId: "A".repeat(19) } }, "SIM0400", "order.orderId"],
    ["a merchantUrl on http", { top: { merchantUrl: "http://shop.example" } }, "GW0001", "merchantUrl"],
    ["a merchantUrl with a path", { top: { merchantUrl: "https://shop.example/checkout" } }, "GW0001", "merchantUrl"],
    ["no merchantUrl", { top: { merchantUrl: undefined } }, "SIM0400", "merchantUrl"],
    ["version 3", { top: { version: "3" } }, "SIM0400", "version"],
    [
      "an APM the simulator does not serve",
      { paymentSession: { paymentService: "PAYPAL" } },
      "SIM0400",
      "paymentService",
    ],
    [
      "a saved card's one-click payment",
      {
        order: { customerId: "c1" },
        paymentSession: { recurrence: { action: "SUBSEQUENT_PAYMENT", contractId: "K1" } },
      },
      "SIM0400",
      "not simulated for Build",
    ],
  ])("refuses %s", async (_case, overrides, code, named) => {
    const answer = await harness.gateway("POST", "/orders/build", { body: buildRequest(overrides) })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ code, description: expect.stringContaining(named) })]),
    )
  })

  it("refuses an orderId used before, and a request without a known API key", async () => {
    const request = buildRequest()
    expect((await harness.gateway("POST", "/orders/build", { body: request })).status).toBe(200)
    const again = await harness.gateway("POST", "/orders/build", { body: request })
    expect(again.body.errors[0].description).toContain("was already used")
    expect((await harness.gateway("POST", "/orders/build", { body: buildRequest(), apiKey: null })).status).toBe(401)
    expect((await harness.gateway("POST", "/orders/build", { body: buildRequest(), apiKey: "nope" })).status).toBe(401)
  })

  it("lets loopback pages use http, for tests", async () => {
    const answer = await harness.gateway("POST", "/orders/build", {
      body: buildRequest({ top: { merchantUrl: "http://127.0.0.1:8000" } }),
    })
    expect(answer.status).toBe(200)
  })
})

describe("the fields", () => {
  it.each([
    ["CARD_NUMBER", CARDS.notLuhn.pan, "HF0004"],
    ["CARD_NUMBER", "3530111333300000", "HF0005"],
    ["EXPIRATION_DATE", "12/20", "HF0006"],
    ["EXPIRATION_DATE", "13/30", "HF0001"],
    ["SECURITY_CODE", "12", "HF0001"],
    ["CARDHOLDER_NAME", " ", "HF0001"],
  ])("refuse %s %j with %s", async (id, value, errorCode) => {
    const { sessionId } = await openSession()
    const answer = await fields("check", { sid: sessionId, id, value })
    expect(answer.body).toMatchObject({ valid: false, errorCode })
  })

  it("accept a valid value, and name an unknown session", async () => {
    const { sessionId } = await openSession()
    expect((await fields("check", { sid: sessionId, id: "CARD_NUMBER", value: CARDS.approved.pan })).body).toEqual({
      valid: true,
    })
    const unknown = await fields("check", { sid: "nope", id: "CARD_NUMBER", value: CARDS.approved.pan })
    expect(unknown.status).toBe(404)
  })

  it("confirm a card once every field is valid, and say which field is not", async () => {
    const { sessionId } = await openSession()
    const refused = await confirmCard(sessionId, { ...CARDS.approved, cvv: "6631" })
    expect(refused.status).toBe(400)
    expect(refused.body.validationStatus).toEqual([
      { id: "CARD_NUMBER", valid: true },
      { id: "EXPIRATION_DATE", valid: true },
      { id: "SECURITY_CODE", valid: false, errorCode: "HF0001", errorMessage: "must be 3 digits for a VISA card" },
      { id: "CARDHOLDER_NAME", valid: true },
    ])
    expect((await stateOf(sessionId)).body.state).toBe("CARD_DATA_COLLECTION")

    const confirmed = await confirmCard(sessionId, CARDS.approved)
    expect(confirmed.body).toEqual({ state: "READY_FOR_PAYMENT", data: {} })
    expect((await stateOf(sessionId)).body).toEqual({ state: "READY_FOR_PAYMENT" })
  })

  it("give no card data before a card is confirmed, then its BIN, last four, expiry and circuit", async () => {
    const { sessionId } = await openSession()
    const cardData = () => harness.gateway("GET", `/build/cardData?sessionId=${encodeURIComponent(sessionId)}`)
    expect((await cardData()).body.errors[0].code).toBe("SIM0409")
    await confirmCard(sessionId, CARDS.approved)
    expect(BuildCardDataSchema.parse((await cardData()).body)).toEqual({
      bin: "499934",
      lastFourDigits: "7289",
      expiringDate: "1230",
      circuit: "VISA",
    })
  })
})

describe("POST /build/finalize_payment by test card", () => {
  it.each([
    ["an approved card", CARDS.approved, ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"]],
    ["a declined card", CARDS.declined, ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/DECLINED"]],
    ["a 3DS-failure card", CARDS.threeDSFailed, ["AUTHORIZATION/THREEDS_FAILED"]],
  ])(
    "%s: PAYMENT_COMPLETE with the last operation, notified with the session's securityToken",
    async (_case, card, steps) => {
      const session = await openSession()
      await confirmCard(session.sessionId, card)
      const finalized = await finalize(session.sessionId)
      expect(finalized.status).toBe(200)
      const order = await harness.order(session.orderId)
      expect(operationSteps(order.body)).toEqual(steps)
      const last = order.body.operations.at(-1)
      expect(BuildStateResponseSchema.parse(finalized.body)).toEqual({ state: "PAYMENT_COMPLETE", operation: last })
      expect(last).toMatchObject({ channel: "ECOMMERCE", paymentMethod: "CARD", operationAmount: "1999" })
      expect(await notifications()).toEqual([
        expect.objectContaining({ securityToken: session.securityToken, operation: last }),
      ])
      expect((await stateOf(session.sessionId)).body).toEqual({ state: "PAYMENT_COMPLETE", operation: last })
    },
  )

  it("captures at once with captureType IMPLICIT", async () => {
    const session = await openSession({ paymentSession: { captureType: "IMPLICIT" } })
    await confirmCard(session.sessionId, CARDS.approvedMc)
    await finalize(session.sessionId)
    expect(operationSteps((await harness.order(session.orderId)).body)).toEqual([
      "CAPTURE/THREEDS_VALIDATED",
      "CAPTURE/EXECUTED",
    ])
  })

  it.each([
    ["passed", "pass", ["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"]],
    ["failed", "fail", ["AUTHORIZATION/THREEDS_FAILED"]],
  ])(
    "a challenge card: REDIRECTED_TO_EXTERNAL_DOMAIN to the challenge page, %s, then back to resultUrl",
    async (_case, outcome, steps) => {
      const session = await openSession()
      await confirmCard(session.sessionId, CARDS.challenge)
      const finalized = await finalize(session.sessionId)
      expect(finalized.body).toEqual({ state: "REDIRECTED_TO_EXTERNAL_DOMAIN", url: expect.any(String) })
      const url: string = finalized.body.url
      expect(url.startsWith(`${harness.sim.publicUrl}/hpp/${session.orderId}/challenge?token=`)).toBe(true)
      expect((await stateOf(session.sessionId)).body).toEqual(finalized.body)
      expect((await harness.order(session.orderId)).body.operations).toEqual([])

      expect((await harness.call("GET", url)).body).toContain("3-D Secure")
      // The card is typed in the merchant's page: the session has no hosted payment form.
      expect((await harness.call("GET", url.replace("/challenge?", "?"))).status).toBe(404)
      const answered = await harness.call("POST", url, {
        body: `outcome=${outcome}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      })
      expect(answered.status).toBe(303)
      expect(answered.headers.get("location")).toBe("https://shop.example/result")
      expect(operationSteps((await harness.order(session.orderId)).body)).toEqual(steps)
      expect((await stateOf(session.sessionId)).body.state).toBe("PAYMENT_COMPLETE")
    },
  )

  it("refuses before the fields confirmed a card, a second time, and another merchant's session", async () => {
    const session = await openSession()
    const early = await finalize(session.sessionId)
    expect(early.body.errors[0]).toMatchObject({
      code: "SIM0409",
      description: expect.stringContaining("READY_FOR_PAYMENT"),
    })
    await confirmCard(session.sessionId, CARDS.approved)
    expect((await finalize(session.sessionId)).status).toBe(200)
    const again = await finalize(session.sessionId)
    expect(again.body.errors[0].description).toContain("already finalized (state PAYMENT_COMPLETE)")
    expect(operationSteps((await harness.order(session.orderId)).body)).toHaveLength(2)
    expect((await finalize("unknown")).status).toBe(404)
    expect((await finalize(session.sessionId, OTHER_MERCHANT_KEY)).status).toBe(404)
  })
})

describe("POST /build/cancel", () => {
  it("ends the session with a CANCEL operation, notified; nothing can follow", async () => {
    const session = await openSession()
    await confirmCard(session.sessionId, CARDS.approved)
    const cancelled = await harness.gateway("POST", "/build/cancel", { body: { sessionId: session.sessionId } })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toEqual({
      state: "PAYMENT_COMPLETE",
      operation: expect.objectContaining({ operationType: "CANCEL", operationResult: "CANCELED" }),
    })
    expect((await notifications())[0].securityToken).toBe(session.securityToken)
    const again = await harness.gateway("POST", "/build/cancel", { body: { sessionId: session.sessionId } })
    expect(again.body.errors[0].code).toBe("SIM0409")
    expect((await finalize(session.sessionId)).status).toBe(400)
    expect((await confirmCard(session.sessionId, CARDS.approved)).body).toEqual({ state: "PAYMENT_COMPLETE", data: {} })
  })
})

describe("expiry", () => {
  it("after BUILD_SESSION_TTL_MS the fields answer HF0003 and finalize is refused; nothing was paid", async () => {
    const session = await openSession()
    await confirmCard(session.sessionId, CARDS.approved)
    await harness.control("POST", "/clock", { offsetMs: BUILD_SESSION_TTL_MS + 1_000 })
    const check = await fields("check", { sid: session.sessionId, id: "CARD_NUMBER", value: CARDS.approved.pan })
    expect(check.body).toMatchObject({ valid: false, errorCode: "HF0003" })
    expect((await confirmCard(session.sessionId, CARDS.approved)).body.errorCode).toBe("HF0003")
    const finalized = await finalize(session.sessionId)
    expect(finalized.body.errors[0]).toMatchObject({ code: "SIM1101", description: expect.stringContaining("expired") })
    expect((await harness.order(session.orderId)).body.operations).toEqual([])
  })
})

describe("the SDK stand-in", () => {
  it("is served readable cross-origin, and GET /build/integrity answers its SRI hash", async () => {
    const script = await fetch(`${harness.sim.publicUrl}/monetaweb/resources/hfsdk.js`)
    expect(script.headers.get("access-control-allow-origin")).toBe("*")
    const text = await script.text()
    expect(text).toContain("window.Build = Build")
    const integrity = await harness.gateway("GET", "/build/integrity")
    expect(integrity.body).toEqual({
      integrity: `sha384-${createHash("sha384").update(text).digest("base64")}`,
    })
  })
})

/** POST /orders/hpp: validation of every field rule, and the answer. */
import { operationSteps, setUpSimulator } from "./support/harness"

const harness = setUpSimulator()

/** A request body the tests break one member at a time. */
type RequestBody = Record<string, Record<string, unknown>>

function validOrder(orderId: string): RequestBody {
  return {
    order: { orderId, amount: "1999", currency: "EUR" },
    paymentSession: { amount: "1999", language: "ita" },
  }
}

async function refusal(mutate: (body: RequestBody) => void) {
  const body = validOrder(harness.newOrderId())
  mutate(body)
  const answer = await harness.gateway("POST", "/orders/hpp", { body })
  expect(answer.status).toBe(400)
  return answer.body.errors as { code: string; description: string }[]
}

describe("POST /orders/hpp", () => {
  it("answers hostedPage (with a page token that is not the securityToken) and securityToken", async () => {
    const { orderId, hostedPage, securityToken } = await harness.hostedOrder()
    const page = new URL(hostedPage)
    expect(page.origin + page.pathname).toBe(`${harness.sim.publicUrl}/hpp/${orderId}`)
    expect(page.searchParams.get("token")).toBeTruthy()
    expect(page.searchParams.get("token")).not.toBe(securityToken)
    expect(hostedPage).not.toContain(securityToken)
  })

  it("opens an order with no operations yet", async () => {
    const { orderId } = await harness.hostedOrder()
    const answer = await harness.order(orderId)
    expect(answer.status).toBe(200)
    expect(operationSteps(answer.body)).toEqual([])
    expect(answer.body.orderStatus).toEqual({
      order: expect.objectContaining({ orderId, amount: "1999", currency: "EUR" }),
      authorizedAmount: "0",
      capturedAmount: "0",
    })
    expect(answer.body.paymentLinks).toEqual([])
  })

  it.each([
    ["order", (body: RequestBody) => delete body.order, "order: is required"],
    ["order.orderId", (body: RequestBody) => delete body.order.orderId, "order.orderId: is required"],
    ["order.currency", (body: RequestBody) => delete body.order.currency, "order.currency: is required"],
    ["paymentSession", (body: RequestBody) => delete body.paymentSession, "paymentSession: is required"],
    [
      "paymentSession.language",
      (body: RequestBody) => delete body.paymentSession.language,
      "paymentSession.language: is required",
    ],
  ])("requires %s", async (_field, mutate, description) => {
    const errors = await refusal(mutate)
    expect(errors.map((error) => error.description)).toEqual(
      expect.arrayContaining([expect.stringContaining(description)]),
    )
  })

  it.each([
    ["order.amount", (body: RequestBody) => (body.order.amount = "19.99")],
    ["order.amount", (body: RequestBody) => (body.order.amount = 1999)],
    ["paymentSession.amount", (body: RequestBody) => (body.paymentSession.amount = "abc")],
    ["paymentSession.amount", (body: RequestBody) => delete body.paymentSession.amount],
  ])("refuses a non-numeric %s with PS0036", async (field, mutate) => {
    const errors = await refusal(mutate)
    expect(errors).toContainEqual({ code: "PS0036", description: expect.stringMatching(new RegExp(`^${field}: `)) })
  })

  it.each([
    ["longer than 18 characters", "A1234567890123456789"],
    ["with other characters than letters and digits", "order-1"],
  ])("refuses an orderId %s", async (_case, orderId) => {
    const errors = await refusal((body) => (body.order.orderId = orderId))
    expect(errors[0].description).toMatch(/^order\.orderId: must be 1 to 18 letters and digits/)
  })

  it("refuses an orderId the merchant already used", async () => {
    const { orderId } = await harness.hostedOrder()
    const errors = await refusal((body) => (body.order.orderId = orderId))
    expect(errors[0].description).toMatch(/order\.orderId: .*already used/)
  })

  it.each([
    ["order.currency", (body: RequestBody) => (body.order.currency = "EUX"), /"EUX" is not an ISO 4217 currency/],
    ["order.currency", (body: RequestBody) => (body.order.currency = "eur"), /ISO 4217/],
    [
      "order.customerInfo.billingAddress.country",
      (body: RequestBody) => (body.order.customerInfo = { billingAddress: { country: "XYZ" } }),
      /"XYZ" is not an ISO 3166-1 alpha-3/,
    ],
    [
      "order.customerInfo.shippingAddress.country",
      (body: RequestBody) => (body.order.customerInfo = { shippingAddress: { country: "IT" } }),
      /alpha-3/,
    ],
    ["paymentSession.language", (body: RequestBody) => (body.paymentSession.language = "qqq"), /not an ISO 639-2/],
    ["paymentSession.language", (body: RequestBody) => (body.paymentSession.language = "it"), /ISO 639-2/],
    [
      "order.transactionSummary.0.language",
      (body: RequestBody) => (body.order.transactionSummary = [{ language: "zzz", summaryList: [] }]),
      /not an ISO 639-2/,
    ],
  ])("checks the code in %s", async (field, mutate, message) => {
    const errors = await refusal(mutate)
    expect(errors[0].description.startsWith(`${field}: `)).toBe(true)
    expect(errors[0].description).toMatch(message)
  })

  it.each([
    ["paymentSession.captureType", (body: RequestBody) => (body.paymentSession.captureType = "LATER")],
    ["paymentSession.actionType", (body: RequestBody) => (body.paymentSession.actionType = "BUY")],
    ["paymentSession.exemptions", (body: RequestBody) => (body.paymentSession.exemptions = "NONE")],
    [
      "paymentSession.recurrence.action",
      (body: RequestBody) => (body.paymentSession.recurrence = { action: "ALWAYS" }),
    ],
  ])("refuses a value outside the enum of %s", async (field, mutate) => {
    const errors = await refusal(mutate)
    expect(errors[0].description).toMatch(new RegExp(`^${field.replace(/\./g, "\\.")}: Invalid option`))
  })

  it("refuses a session amount above the order amount with PS0007", async () => {
    const errors = await refusal((body) => (body.paymentSession.amount = "2000"))
    expect(errors).toEqual([
      {
        code: "PS0007",
        description: expect.stringContaining("paymentSession.amount: 2000 is above order.amount 1999"),
      },
    ])
  })

  it("accepts a session amount below the order amount", async () => {
    const { orderId } = await harness.hostedOrder({ paymentSession: { amount: "500" } })
    expect((await harness.order(orderId)).status).toBe(200)
  })

  it("refuses a zero amount unless the session only verifies the card", async () => {
    const errors = await refusal((body) => {
      body.order.amount = "0"
      body.paymentSession.amount = "0"
    })
    expect(errors.map((error) => error.description).join(" ")).toMatch(/must be above 0/)
    await harness.hostedOrder({ order: { amount: "0" }, paymentSession: { amount: "0", actionType: "VERIFY" } })
  })

  it.each(["resultUrl", "cancelUrl", "notificationUrl"])("refuses an invalid %s with GW0001", async (field) => {
    const errors = await refusal((body) => (body.paymentSession[field] = "ftp://shop.example/x"))
    expect(errors).toEqual([
      { code: "GW0001", description: expect.stringMatching(new RegExp(`^paymentSession\\.${field}: `)) },
    ])
  })

  it("lists every problem of a request at once", async () => {
    const errors = await refusal((body) => {
      body.order.currency = "EUX"
      body.paymentSession.language = "qqq"
      body.paymentSession.amount = "9999"
    })
    expect(errors.map((error) => error.code).sort()).toEqual(["PS0007", "SIM0400", "SIM0400"])
  })
})

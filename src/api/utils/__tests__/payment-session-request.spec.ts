/** The store route's checks of a Nexi payment session request, before Medusa's workflow runs. */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { keepDocumentedSessionData, refuseUnknownLanguage, requireConsumerId } from "../payment-session-request"

type Middleware = (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => void

/** What a refusing middleware hands to `next`: nothing when the request may go on, else the refusal. */
function outcome(middleware: Middleware, body: unknown): unknown {
  let passed: unknown = "next was not called"
  middleware({ body } as MedusaRequest, {} as MedusaResponse, (error?: unknown) => {
    passed = error
  })
  return passed
}

function filtered(body: Record<string, unknown>): Record<string, unknown> {
  let nextCalls = 0
  keepDocumentedSessionData({ body } as MedusaRequest, {} as MedusaResponse, () => {
    nextCalls += 1
  })
  expect(nextCalls).toBe(1)
  return body
}

// As a JSON body arrives: "__proto__" is an own key there.
const HOSTILE: Record<string, unknown> = JSON.parse(
  '{"moto": true, "nexi_cart": {"cart_id": "cart_forged"}, "order_id": "x", "__proto__": {"polluted": true}, "consumer_id": "+4712345678"}',
)

describe("keepDocumentedSessionData", () => {
  it("keeps nothing of a card session's data", () => {
    expect(filtered({ provider_id: "pp_nexi_nexi", data: { ...HOSTILE } }).data).toEqual({})
    expect(filtered({ provider_id: "pp_nexi_nexi-it", data: { moto: true } }).data).toEqual({})
  })

  it("keeps a card session's language, which the next middleware checks", () => {
    expect(filtered({ provider_id: "pp_nexi_nexi", data: { ...HOSTILE, language: "it" } }).data).toEqual({
      language: "it",
    })
  })

  it("keeps a mobile session's language: the payment app's, checked by the next middleware", () => {
    const data = { consumer_id: "+4712345678", language: "it" }
    expect(filtered({ provider_id: "pp_nexi-apm-psp-b_nexi", data }).data).toEqual(data)
  })

  it("keeps only consumer_id of a mobile session's data", () => {
    const data = filtered({ provider_id: "pp_nexi-apm-psp-b_nexi", data: { ...HOSTILE } }).data as Record<
      string,
      unknown
    >
    expect(data).toEqual({ consumer_id: "+4712345678" })
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype)
    expect((data as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it("leaves a mobile session without consumer_id without one (the next middleware refuses it)", () => {
    expect(filtered({ provider_id: "pp_nexi-apm-psp-c_nexi", data: { nexi_cart: {} } }).data).toEqual({})
  })

  it("leaves data that is no object for Medusa's validator, and no data absent", () => {
    expect(filtered({ provider_id: "pp_nexi_nexi", data: "pay now" }).data).toBe("pay now")
    expect(filtered({ provider_id: "pp_nexi_nexi" })).not.toHaveProperty("data")
  })

  it("leaves other providers' data alone", () => {
    expect(filtered({ provider_id: "pp_stripe_stripe", data: { moto: true } }).data).toEqual({ moto: true })
    expect(filtered({ provider_id: "pp_system_default", data: { nexi_cart: 1 } }).data).toEqual({ nexi_cart: 1 })
  })
})

describe("requireConsumerId", () => {
  it.each([
    ["no data", { provider_id: "pp_nexi-apm-psp-b_nexi" }],
    ["an empty consumer id", { provider_id: "pp_nexi-apm-psp-b_nexi", data: { consumer_id: "  " } }],
    [
      "a consumer id that is an object",
      { provider_id: "pp_nexi-apm-psp-c_nexi", data: { consumer_id: { phone: "+46" } } },
    ],
    ["data that is text", { provider_id: "pp_nexi-apm-psp-a-e-com_nexi", data: "+4712345678" }],
  ])("refuses a mobile payment session with %s, naming data.consumer_id", (_case, body) => {
    const refusal = outcome(requireConsumerId, body) as MedusaError
    expect(refusal).toBeInstanceOf(MedusaError)
    expect(refusal.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(refusal.message).toMatch(/data\.consumer_id/)
  })

  it.each([
    ["a mobile number", { provider_id: "pp_nexi-apm-psp-b_nexi", data: { consumer_id: "+4712345678" } }],
    ["a numeric code", { provider_id: "pp_nexi-apm-psp-d_nexi", data: { consumer_id: 4512345678 } }],
    ["a card session, which needs none", { provider_id: "pp_nexi_nexi" }],
    ["another provider's session", { provider_id: "pp_system_default" }],
    ["a body Medusa itself will refuse", { provider_id: 42 }],
  ])("lets %s through", (_case, body) => {
    expect(outcome(requireConsumerId, body)).toBeUndefined()
  })
})

describe("refuseUnknownLanguage", () => {
  it.each([
    ["a language's name", "italiano"],
    ["an Accept-Language header", "it-IT,it;q=0.9"],
    ["an unknown language", "tlh"],
    ["a wildcard", "*"],
    ["an empty string", ""],
    ["null", null],
    ["a number", 39],
  ])("refuses a card session with %s as language, naming data.language and the value", (_case, language) => {
    const refusal = outcome(refuseUnknownLanguage, { provider_id: "pp_nexi_nexi", data: { language } }) as MedusaError
    expect(refusal).toBeInstanceOf(MedusaError)
    expect(refusal.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(refusal.message).toMatch(/^data\.language: /)
    expect(refusal.message).toContain(JSON.stringify(language))
  })

  it("refuses a mobile session's unknown language too: the payment app would speak another one", () => {
    const refusal = outcome(refuseUnknownLanguage, {
      provider_id: "pp_nexi-apm-psp-b_nexi",
      data: { language: "klingon" },
    }) as MedusaError
    expect(refusal).toBeInstanceOf(MedusaError)
    expect(refusal.message).toMatch(/^data\.language: "klingon"/)
  })

  it.each([
    ["a language", { provider_id: "pp_nexi_nexi", data: { language: "it" } }],
    ["a language and region", { provider_id: "pp_nexi_nexi-it", data: { language: "it-IT" } }],
    ["an ISO 639-2 code", { provider_id: "pp_nexi_nexi", data: { language: "ita" } }],
    ["no language", { provider_id: "pp_nexi_nexi", data: { save_card: true } }],
    ["no data", { provider_id: "pp_nexi_nexi" }],
    ["a mobile session's language", { provider_id: "pp_nexi-apm-psp-b_nexi", data: { language: "it-IT" } }],
    ["another provider's session", { provider_id: "pp_system_default", data: { language: "klingon" } }],
  ])("lets %s through", (_case, body) => {
    expect(outcome(refuseUnknownLanguage, body)).toBeUndefined()
  })
})

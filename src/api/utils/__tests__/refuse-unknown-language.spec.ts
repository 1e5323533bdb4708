/** The store route's check of a Nexi session's `data.language`, before Medusa's workflow runs. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { refuseUnknownLanguage } from "../refuse-unknown-language"

/** What the middleware hands to `next`: nothing when the request may go on, else the refusal. */
function outcome(body: unknown): unknown {
  let passed: unknown = "next was not called"
  refuseUnknownLanguage({ body } as MedusaRequest, {} as MedusaResponse, (error?: unknown) => {
    passed = error
  })
  return passed
}

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
    const refusal = outcome({ provider_id: "pp_nexi_nexi", data: { language } }) as MedusaError
    expect(refusal).toBeInstanceOf(MedusaError)
    expect(refusal.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(refusal.message).toMatch(/^data\.language: /)
    expect(refusal.message).toContain(JSON.stringify(language))
  })

  it("refuses a mobile session's unknown language too: the payment app would speak another one", () => {
    const refusal = outcome({ provider_id: "pp_nexi-apm-psp-b_nexi", data: { language: "klingon" } }) as MedusaError
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
    expect(outcome(body)).toBeUndefined()
  })
})

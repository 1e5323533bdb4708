/** The store route's filter of payment session data, before anything reads it. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { keepDocumentedSessionData } from "../keep-documented-session-data"

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

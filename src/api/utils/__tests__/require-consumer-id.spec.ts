/** The store route's check of a mobile payment session's consumer id, before Medusa's workflow runs. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { requireConsumerId } from "../require-consumer-id"

/** What the middleware hands to `next`: nothing when the request may go on, else the refusal. */
function outcome(body: unknown): unknown {
  let passed: unknown = "next was not called"
  requireConsumerId({ body } as MedusaRequest, {} as MedusaResponse, (error?: unknown) => {
    passed = error
  })
  return passed
}

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
    const refusal = outcome(body) as MedusaError
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
    expect(outcome(body)).toBeUndefined()
  })
})

import { readCardSessionData } from "../card/card-sessions"
import { readApmSessionData } from "../mobile/apm-session-data"

describe("session data readers", () => {
  it("keeps keys they do not know, and reads a stored null as absent", () => {
    expect(readCardSessionData({ order_id: "ORD1", reason: null, storefront_note: "hi" })).toEqual({
      order_id: "ORD1",
      storefront_note: "hi",
    })
  })

  it("refuses a field of the wrong type, naming it", () => {
    expect(() => readCardSessionData({ order_id: 42 })).toThrow(
      /The payment session's data is not the Nexi provider's: order_id: /,
    )
    expect(() => readCardSessionData({ amount_minor: "12.50" })).toThrow(
      /amount_minor: must be a whole number of minor units/,
    )
    expect(() => readCardSessionData({ status: "paid" })).toThrow(/status: /)
    expect(() => readApmSessionData({ refund_transaction_ids: "7000000002" })).toThrow(/refund_transaction_ids: /)
  })

  it("reads a mobile number a storefront sent as a number as its digits", () => {
    expect(readApmSessionData({ consumer_id: 4712345678 }).consumer_id).toBe("4712345678")
  })

  it("reads an empty or missing record as no fields", () => {
    expect(readCardSessionData(undefined)).toEqual({})
    expect(readApmSessionData({})).toEqual({})
  })
})

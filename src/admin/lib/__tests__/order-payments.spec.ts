import { nexiPaymentPresence } from "../order-payments"

const order = (...providerIds: string[][]) => ({
  payment_collections: providerIds.map((ids) => ({ payments: ids.map((provider_id) => ({ provider_id })) })),
})

describe("nexiPaymentPresence", () => {
  it("finds a card or mobile Nexi payment in any payment collection", () => {
    expect(nexiPaymentPresence(order(["pp_nexi_nexi"]))).toBe("yes")
    expect(nexiPaymentPresence(order(["pp_system_default"], ["pp_nexi-apm-psp-b_nexi"]))).toBe("yes")
  })

  it("answers no for an order paid only otherwise, or not paid at all", () => {
    expect(nexiPaymentPresence(order(["pp_system_default", "pp_stripe_stripe"]))).toBe("no")
    expect(nexiPaymentPresence(order([]))).toBe("no")
    expect(nexiPaymentPresence({ payment_collections: [] })).toBe("no")
  })

  it("does not mistake a provider whose id merely contains nexi", () => {
    expect(nexiPaymentPresence(order(["pp_nexipay_other", "pp_stripe_nexi"]))).toBe("no")
  })

  it("answers unknown when the order was loaded without its payments", () => {
    expect(nexiPaymentPresence({})).toBe("unknown")
    expect(nexiPaymentPresence(undefined)).toBe("unknown")
    expect(nexiPaymentPresence({ payment_collections: [{}] })).toBe("unknown")
  })
})

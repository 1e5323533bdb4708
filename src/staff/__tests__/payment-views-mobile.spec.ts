import type { ExtendedEnvelope } from "../../apm/schemas"
import { mobilePaymentView } from "../payment-views"

/** A status answer as the service gives it after the shopper approved and the scheme finalized. */
const finalized: ExtendedEnvelope = {
  valid: true,
  transactionId: 318274,
  state: "FINALIZED",
  accountState: "COMMIT",
  response: {
    responseCode: 0,
    request: {
      channel: "WS_REST",
      transaction: {
        transactionId: 318274,
        amount: { currencyCode: "EUR", vatAmount: 360, nominalAmount: 1639, totalAmount: 1999 },
        merchant: { merchantId: "sim-merchant" },
        state: "FINALIZED",
        transitions: [
          { timeStamp: "2026-11-21T10:00:00.000Z", to: "INITIALIZED", event: "CREATE" },
          { timeStamp: "2026-11-21T10:00:05.000Z", from: "INITIALIZED", to: "AUTHORIZED", event: "AUTHORIZE" },
          { timeStamp: "2026-11-21T10:00:06.000Z", from: "AUTHORIZED", to: "FINALIZED", event: "FINALIZE" },
        ],
      },
    },
  },
}

describe("mobilePaymentView", () => {
  it("shows the scheme, the transaction, its state, the amount held and every transition", () => {
    const view = mobilePaymentView(
      { payment_id: "pay_2", provider_id: "pp_nexi-apm-psp-b_nexi" },
      { method: "PSP_B", transaction_id: "318274", amount_minor: "1999", currency: "EUR" },
      finalized,
    )
    expect(view).toEqual({
      kind: "mobile",
      payment_id: "pay_2",
      provider_id: "pp_nexi-apm-psp-b_nexi",
      provider_name: "Mobile payment B",
      scheme: "PSP_B",
      transaction_id: "318274",
      state: "FINALIZED",
      amount: { amount: "19.99", currency: "EUR" },
      transitions: [
        { from: null, to: "INITIALIZED", event: "CREATE", time: "2026-11-21T10:00:00.000Z" },
        { from: "INITIALIZED", to: "AUTHORIZED", event: "AUTHORIZE", time: "2026-11-21T10:00:05.000Z" },
        { from: "AUTHORIZED", to: "FINALIZED", event: "FINALIZE", time: "2026-11-21T10:00:06.000Z" },
      ],
    })
  })

  it("falls back on the session's amount when the answer carries no transaction", () => {
    const view = mobilePaymentView(
      { payment_id: "pay_3", provider_id: "pp_nexi-apm-psp-c_nexi" },
      { method: "PSP_C", transaction_id: "9", amount_minor: "5000", currency: "JPY" },
      { valid: true, state: "PENDING" },
    )
    expect(view).toMatchObject({
      transaction_id: "9",
      state: "PENDING",
      amount: { amount: "5000", currency: "JPY" },
      transitions: [],
    })
  })
})

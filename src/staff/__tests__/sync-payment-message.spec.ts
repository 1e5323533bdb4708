import BigNumber from "bignumber.js"
import { syncMessage } from "../sync-payment"

const totals = (captured: string, refunded: string) => ({
  captured: new BigNumber(captured),
  refunded: new BigNumber(refunded),
})

describe("syncMessage", () => {
  it("names a refund recorded from the gateway, exactly", () => {
    expect(
      syncMessage({
        currency: "eur",
        before: totals("39.98", "0"),
        after: totals("39.98", "4.5"),
        gateway: { captured: "39.98", refunded: "4.50" },
      }),
    ).toBe("Recorded a refund of 4.50 EUR made at the gateway outside Medusa.")
  })

  it("says nothing changed when Medusa already agrees", () => {
    expect(
      syncMessage({
        currency: "JPY",
        before: totals("5000", "0"),
        after: totals("5000", "0"),
        gateway: { captured: "5000", refunded: "0" },
      }),
    ).toBe("Nothing to record: Medusa already has every refund the gateway reports.")
  })

  it("treats a cancelled capture recorded as a refund as agreement", () => {
    const message = syncMessage({
      currency: "EUR",
      before: totals("25.5", "25.5"),
      after: totals("25.5", "25.5"),
      gateway: { captured: "0.00", refunded: "0.00" },
    })
    expect(message).not.toMatch(/gateway holds/)
  })

  it("warns when the gateway holds a capture Medusa does not know", () => {
    const message = syncMessage({
      currency: "KWD",
      before: totals("0", "0"),
      after: totals("0", "0"),
      gateway: { captured: "1.234", refunded: "0.000" },
    })
    expect(message).toMatch("The gateway holds 1.234 KWD captured and not refunded, Medusa 0.000 KWD")
  })
})

import type { GatewayClient } from "../../../gateway/gateway-client"
import type { DoctorContext } from "../check"
import { currenciesCheck, currenciesOfMethod } from "../currencies-check"
import { readPaymentMethodsOnce } from "../payment-methods-read"
import { doctorFixture } from "./support/doctor-fixture"

const doctor = doctorFixture()

describe("currencies check, against the simulator", () => {
  it("passes currencies the plugin converts, saying the gateway gives no per-currency data", async () => {
    const finding = await currenciesCheck.run(doctor.context({}, { currencies: ["eur", "JPY", "EUR"] }))
    expect(finding.status).toBe("pass")
    expect(finding.detail).toBe(
      "EUR, JPY: every region currency converts to minor units. The gateway's payment methods carry no per-currency data, so only the conversion was checked.",
    )
  })

  it("fails a currency the plugin does not know", async () => {
    const finding = await currenciesCheck.run(doctor.context({}, { currencies: ["EUR", "XYZ"] }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/^XYZ is not an ISO 4217 currency the plugin converts to minor units\./)
    expect(finding.fix).toMatch(/Remove the currency from the region/)
  })

  it("checks only the conversion when the payment methods cannot be read, and says so", async () => {
    const finding = await currenciesCheck.run(doctor.context({ apiKey: "wrong" }, { currencies: ["EUR"] }))
    expect(finding.status).toBe("pass")
    expect(finding.detail).toMatch(/could not be read, so only the conversion was checked/)
  })

  it("warns when no currency is known", async () => {
    const finding = await currenciesCheck.run(doctor.context({}, { currencies: undefined }))
    expect(finding.status).toBe("warn")
    expect(finding.fix).toMatch(/--currency EUR/)
  })
})

describe("currencies check, with per-currency data", () => {
  // The simulator's methods carry no currencies (nor does the contract); a stub of our own
  // GatewayClient interface stands in for a gateway that lists them.
  const contextListing = (currencies: string[]): DoctorContext => {
    const gateway = {
      listPaymentMethods: async () => ({
        paymentMethods: [
          { circuit: "VISA", methodType: "CARD", currencies },
          { circuit: "PAYPAL", methodType: "APM", currencies: ["USD"] },
        ],
      }),
    } as unknown as GatewayClient
    return { currencies: ["EUR", "USD"], paymentMethods: readPaymentMethodsOnce(gateway) } as unknown as DoctorContext
  }

  it("fails a currency no card method lists", async () => {
    const finding = await currenciesCheck.run(contextListing(["eur"]))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toBe(
      "the gateway lists no card payment method for USD. Checked against the currencies the gateway's card methods list.",
    )
  })

  it("passes when a card method lists every currency", async () => {
    expect((await currenciesCheck.run(contextListing(["EUR", "USD"]))).status).toBe("pass")
  })

  it("reads the currencies a method lists under the names a gateway might use", () => {
    expect(currenciesOfMethod({ circuit: "VISA", methodType: "CARD" })).toBeUndefined()
    expect(currenciesOfMethod({ circuit: "VISA", methodType: "CARD", supportedCurrencies: ["eur"] } as never)).toEqual([
      "EUR",
    ])
    expect(currenciesOfMethod({ circuit: "VISA", methodType: "CARD", currency: "chf" } as never)).toEqual(["CHF"])
  })
})

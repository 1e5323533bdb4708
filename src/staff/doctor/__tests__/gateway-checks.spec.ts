import { createApmClient } from "../../../apm/http-apm-client"
import type { GatewayClient } from "../../../gateway/gateway-client"
import { capturingLogger } from "../../../http/__tests__/support/expectations"
import { type DoctorContext, readPaymentMethodsOnce } from "../check"
import {
  apiKeyCheck,
  apmCredentialsCheck,
  clockCheck,
  currenciesCheck,
  currenciesOfMethod,
  walletsCheck,
} from "../gateway-checks"
import { closedPort, doctorFixture, SIM_API_KEY } from "./support/doctor-fixture"

const doctor = doctorFixture()

describe("API key check, against the simulator", () => {
  it("passes when GET /payment_methods answers 200", async () => {
    const finding = await apiKeyCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toBe(
      `The gateway accepts the API key: GET ${doctor.simulator().gatewayUrl}/payment_methods answered 200 with 8 payment methods.`,
    )
  })

  it("fails a wrong key (401) with the fix, never printing a key", async () => {
    const finding = await apiKeyCheck.run(doctor.context({ apiKey: "not-the-merchant-key" }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/^the API key is refused; GET \S+\/payment_methods answered 401\.$/)
    expect(finding.fix).toMatch(/apiKey option \(NEXI_API_KEY\)/)
    expect(JSON.stringify(finding)).not.toContain("not-the-merchant-key")
    expect(JSON.stringify(finding)).not.toContain(SIM_API_KEY)
  })

  it("fails an unreachable gateway naming its URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/phoenix-0.0/psp/api/v1`
    const finding = await apiKeyCheck.run(doctor.context({ environment: url }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(
      new RegExp(`^the gateway is unreachable at ${url.replace(/\./g, "\\.")}/payment_methods: `),
    )
    expect(finding.fix).toMatch(/environment option/)
  })

  it("fails a URL that is not the gateway's", async () => {
    const finding = await apiKeyCheck.run(doctor.context({ environment: `${doctor.simulator().url}/not-the-gateway` }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/answered 404 that is not the gateway's payment methods list/)
  })
})

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

describe("APM credentials check, against the simulator", () => {
  it("passes when a status read of an unknown transaction answers 404", async () => {
    const finding = await apmCredentialsCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toMatch(
      /accepts the consumer key and secret: a status read of an unknown transaction \(GET \S+\/ms\/aapay\/v2\/transaction\/999999999999999999\) answered 404\.$/,
    )
  })

  it("logs nothing above debug when it passes: the 404 is the answer it asked for", async () => {
    const { lines, logger } = capturingLogger()
    const context = doctor.context()
    const apm = createApmClient({ ...context.options.apm!, logger })
    const finding = await apmCredentialsCheck.run({ ...context, clients: { ...context.clients, apm } })
    apm.close()
    expect(finding.status).toBe("pass")
    expect(lines.filter((line) => !line.startsWith("debug "))).toEqual([])
  })

  it("fails a wrong consumer secret (401), never printing it", async () => {
    const finding = await apmCredentialsCheck.run(doctor.context({ apm: { consumerSecret: "wrong-secret" } }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/^the consumer key and secret are refused; GET \S+ answered 401\.$/)
    expect(finding.fix).toMatch(/apm\.consumerKey and apm\.consumerSecret/)
    expect(JSON.stringify(finding)).not.toMatch(/wrong-secret|sim-secret/)
  })

  it("fails an unreachable service naming its URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/apm`
    const finding = await apmCredentialsCheck.run(doctor.context({ apm: { environment: url } }))
    expect(finding.status).toBe("fail")
    expect(finding.detail).toContain(`the service is unreachable at ${url}/ms/aapay/v2/transaction/`)
  })

  it("passes, saying so, when mobile payments are not configured", async () => {
    const finding = await apmCredentialsCheck.run(doctor.context({ apm: null }))
    expect(finding).toEqual({
      status: "pass",
      detail: "apm is not configured: mobile payments are off, nothing to check.",
    })
  })
})

describe("clock check, against the simulator's Date header", () => {
  it("passes a clock in step with the gateway's", async () => {
    const finding = await clockCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toMatch(/^The local clock is within [12] s of the gateway's \(Date: \w{3}, /)
  })

  it("warns above 60 s of skew, saying which way", async () => {
    const ahead = await clockCheck.run(doctor.context({}, { now: () => Date.now() + 5 * 60_000 }))
    expect(ahead.status).toBe("warn")
    expect(ahead.detail).toMatch(/^The local clock is 30\d s ahead of the gateway's/)
    expect(ahead.fix).toMatch(/NTP/)
    const behind = await clockCheck.run(doctor.context({}, { now: () => Date.now() - 90_000 }))
    expect(behind.status).toBe("warn")
    expect(behind.detail).toMatch(/^The local clock is (89|9\d) s behind the gateway's/)
  })

  it("stays within 60 s at 59 s of skew", async () => {
    const finding = await clockCheck.run(doctor.context({}, { now: () => Date.now() + 58_000 }))
    expect(finding.status).toBe("pass")
  })

  it("sends the API key in its header only, and warns when the gateway cannot be reached", async () => {
    const seen: Array<{ url: string; headers: Headers }> = []
    // Our own seam (the check's fetch): records what the plain request carries, then sends it.
    const recording: typeof fetch = async (url, init) => {
      seen.push({ url: String(url), headers: new Headers(init?.headers) })
      return fetch(url, init)
    }
    await clockCheck.run(doctor.context({}, { fetch: recording }))
    expect(seen).toHaveLength(1)
    expect(seen[0].url).toBe(doctor.simulator().gatewayUrl)
    expect(seen[0].headers.get("x-api-key")).toBe(SIM_API_KEY)

    const down = await clockCheck.run(doctor.context({ environment: `http://127.0.0.1:${await closedPort()}/v1` }))
    expect(down.status).toBe("warn")
    expect(down.detail).toMatch(/^Could not read the gateway's time from http:\/\/127\.0\.0\.1:\d+\/v1: /)
    expect(clockCheck.blocking).toBe(false)
  })
})

describe("wallets check", () => {
  it("passes the wallets the simulator lists for the merchant", async () => {
    const finding = await walletsCheck.run(doctor.context({ wallets: ["GOOGLEPAY", "APPLEPAY"] }))
    expect(finding).toEqual({
      status: "pass",
      detail:
        "wallets offers Google Pay (GOOGLEPAY) and Apple Pay (APPLEPAY), which the gateway lists for this merchant.",
    })
    expect(walletsCheck.blocking).toBe(false)
  })

  it("passes no wallet, naming those the gateway lists that the store could offer", async () => {
    const finding = await walletsCheck.run(doctor.context())
    expect(finding.status).toBe("pass")
    expect(finding.detail).toBe(
      "The wallets option offers none: shoppers pay by card. The gateway lists Google Pay (GOOGLEPAY) and Apple Pay (APPLEPAY) for this merchant: add GOOGLEPAY, APPLEPAY to wallets to offer them.",
    )
  })

  it("warns of an offered wallet the gateway does not list, with the fix", async () => {
    // The simulator lists both wallets for every merchant; a stub of our own GatewayClient
    // interface stands in for a merchant whose contract enables Google Pay only.
    const gateway = {
      listPaymentMethods: async () => ({
        paymentMethods: [
          { circuit: "VISA", methodType: "CARD" },
          { circuit: "GOOGLEPAY", methodType: "APM" },
        ],
      }),
    } as unknown as GatewayClient
    const context = {
      ...doctor.context({ wallets: ["GOOGLEPAY", "APPLEPAY"] }),
      paymentMethods: readPaymentMethodsOnce(gateway),
    }
    const finding = await walletsCheck.run(context)
    expect(finding).toEqual({
      status: "warn",
      detail:
        "wallets offers Apple Pay (APPLEPAY), which the gateway's payment methods (GET /payment_methods) do not list for this merchant: a shopper who chooses it cannot pay.",
      fix: "Ask Nexi to enable APPLEPAY on the terminal, or remove it from the card provider's wallets option.",
    })
  })

  it("warns that it could not check when the payment methods cannot be read", async () => {
    const finding = await walletsCheck.run(doctor.context({ apiKey: "wrong", wallets: ["APPLEPAY"] }))
    expect(finding.status).toBe("warn")
    expect(finding.detail).toBe(
      "wallets offers Apple Pay (APPLEPAY); the gateway's payment methods could not be read, so whether Nexi enabled them was not checked.",
    )
  })
})

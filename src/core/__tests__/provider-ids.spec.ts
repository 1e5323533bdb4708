import { APM_METHODS } from "../../apm/schemas"
import { parseNexiOptions } from "../options"
import { apmIdentifier, apmMethodOfProvider, apmSchemeName, nexiProviderName } from "../provider-ids"

const BASE = {
  apiKey: "key",
  resultUrl: "https://shop.test/result",
  cancelUrl: "https://shop.test/cancel",
  notificationUrl: "https://shop.test",
}
const APM = { consumerKey: "k", consumerSecret: "s", merchantId: "m", environment: "http://127.0.0.1:4010/apm" }

describe("scheme identifiers", () => {
  it("gives each scheme a provider identifier Medusa accepts", () => {
    expect(APM_METHODS.map(apmIdentifier)).toEqual([
      "nexi-apm-psp-a-e-com",
      "nexi-apm-psp-b",
      "nexi-apm-psp-c",
      "nexi-apm-psp-d",
    ])
  })

  it("finds the scheme of a provider id or identifier, and none for the card provider", () => {
    expect(apmMethodOfProvider("pp_nexi-apm-psp-a-e-com_nexi")).toBe("PSP_A_E_COM")
    expect(apmMethodOfProvider("nexi-apm-psp-b_nexi")).toBe("PSP_B")
    expect(apmMethodOfProvider("pp_nexi_nexi")).toBeUndefined()
  })

  it("reads the scheme of an entry whose id holds underscores, as medusa-config allows", () => {
    expect(apmMethodOfProvider("pp_nexi-apm-psp-b_shop_it")).toBe("PSP_B")
    expect(apmMethodOfProvider("nexi-apm-psp-c_shop_it")).toBe("PSP_C")
    expect(apmMethodOfProvider("nexi-apm-psp-d")).toBe("PSP_D")
    expect(apmMethodOfProvider("pp_nexi_shop_it")).toBeUndefined()
  })
})

describe("apm options", () => {
  it("enables every scheme and neutral names by default", () => {
    const { apm } = parseNexiOptions({ ...BASE, apm: APM })
    expect(apm?.methods).toEqual([...APM_METHODS])
    expect(apmSchemeName("PSP_B", apm)).toBe("Mobile payment B")
    expect(apm?.terminalReference).toBeUndefined()
  })

  it("takes the store's names for the schemes it signed up for", () => {
    const { apm } = parseNexiOptions({ ...BASE, apm: { ...APM, names: { PSP_B: "Pay by phone" } } })
    expect(apmSchemeName("PSP_B", apm)).toBe("Pay by phone")
    expect(apmSchemeName("PSP_C", apm)).toBe("Mobile payment C")
  })

  it("names the bad option: an unknown scheme, an empty name, a logo that is not a URL", () => {
    expect(() => parseNexiOptions({ ...BASE, apm: { ...APM, methods: ["PSP_X"] } })).toThrow(/apm\.methods\.0/)
    expect(() => parseNexiOptions({ ...BASE, apm: { ...APM, names: { PSP_B: " " } } })).toThrow(
      /apm\.names\.PSP_B: must not be empty/,
    )
    expect(() => parseNexiOptions({ ...BASE, apm: { ...APM, logoUrls: { PSP_B: "logo.svg" } } })).toThrow(
      /apm\.logoUrls\.PSP_B/,
    )
  })

  it("leaves the card provider's options valid without apm", () => {
    expect(parseNexiOptions(BASE).apm).toBeUndefined()
  })
})

describe("nexiProviderName", () => {
  it("names a provider as staff read it, with the entry only when it is not the default one", () => {
    expect(nexiProviderName("pp_nexi_nexi")).toBe("Nexi card")
    expect(nexiProviderName("pp_nexi-apm-psp-b_nexi")).toBe("Mobile payment B")
    expect(nexiProviderName("pp_nexi_nexi_eu")).toBe("Nexi card (nexi_eu)")
  })
})

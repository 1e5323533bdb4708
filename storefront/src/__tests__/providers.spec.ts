/** Nexi provider ids as the plugin registers them (its README, "Provider ids"). */
import { isNexiCardProvider, isNexiMobileProvider, isNexiProvider, parseNexiProviderId } from "../providers.js"

describe("parseNexiProviderId", () => {
  it("reads a card provider and its store entry", () => {
    expect(parseNexiProviderId("pp_nexi_nexi")).toEqual({ kind: "card", providerId: "pp_nexi_nexi", entryId: "nexi" })
    expect(parseNexiProviderId("pp_nexi_shop_eu")).toEqual({
      kind: "card",
      providerId: "pp_nexi_shop_eu",
      entryId: "shop_eu",
    })
  })

  it("reads each mobile scheme and its store entry", () => {
    expect(parseNexiProviderId("pp_nexi-apm-psp-b_nexi")).toEqual({
      kind: "mobile",
      providerId: "pp_nexi-apm-psp-b_nexi",
      entryId: "nexi",
      scheme: "psp-b",
    })
    expect(parseNexiProviderId("pp_nexi-apm-psp-a-e-com_shop")).toEqual({
      kind: "mobile",
      providerId: "pp_nexi-apm-psp-a-e-com_shop",
      entryId: "shop",
      scheme: "psp-a-e-com",
    })
  })

  it("answers nothing for other providers and non-strings", () => {
    for (const other of [
      "pp_stripe_stripe",
      "pp_system_default",
      "pp_nexi",
      "nexi_nexi",
      "pp_nexix_nexi",
      "",
      undefined,
      42,
    ]) {
      expect(parseNexiProviderId(other)).toBeUndefined()
    }
  })
})

describe("isNexiProvider, isNexiCardProvider, isNexiMobileProvider", () => {
  it.each([
    ["pp_nexi_nexi", true, true, false],
    ["pp_nexi-apm-psp-d_nexi", true, false, true],
    ["pp_stripe_stripe", false, false, false],
    [null, false, false, false],
  ])("%s: nexi %s, card %s, mobile %s", (id, nexi, card, mobile) => {
    expect(isNexiProvider(id)).toBe(nexi)
    expect(isNexiCardProvider(id)).toBe(card)
    expect(isNexiMobileProvider(id)).toBe(mobile)
  })
})

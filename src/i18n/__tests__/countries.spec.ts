import { isCountryAlpha3 } from "../../simulator/iso-codes"
import { ALPHA3_BY_ALPHA2, toAlpha3Country } from "../countries"

describe("toAlpha3Country", () => {
  it.each([
    // Medusa stores alpha-2 lower-case.
    ["it", "ITA"],
    ["de", "DEU"],
    ["fr", "FRA"],
    ["gb", "GBR"],
    ["us", "USA"],
    ["ch", "CHE"],
    ["sm", "SMR"],
    ["va", "VAT"],
    // Codes whose alpha-3 does not start with the alpha-2.
    ["km", "COM"],
    ["gs", "SGS"],
    ["pm", "SPM"],
    ["tf", "ATF"],
    ["yt", "MYT"],
    ["ky", "CYM"],
    ["kp", "PRK"],
    ["ax", "ALA"],
    // Codes assigned after 2010.
    ["bq", "BES"],
    ["cw", "CUW"],
    ["sx", "SXM"],
    ["ss", "SSD"],
    // Any case, surrounding blanks.
    ["IT", "ITA"],
    ["iT", "ITA"],
    [" it ", "ITA"],
    ["\tde\n", "DEU"],
  ])("alpha-2 %p -> %s", (code, alpha3) => {
    expect(toAlpha3Country(code)).toBe(alpha3)
  })

  it.each([
    ["ITA", "ITA"],
    ["ita", "ITA"],
    ["Deu", "DEU"],
    ["COM", "COM"],
    [" usa ", "USA"],
  ])("known alpha-3 %p -> %s", (code, alpha3) => {
    expect(toAlpha3Country(code)).toBe(alpha3)
  })

  it.each([
    [undefined],
    [null],
    [""],
    ["   "],
    // Not assigned: user-assigned (Kosovo), exceptionally reserved (UK, EL), never used.
    ["xk"],
    ["uk"],
    ["el"],
    ["zz"],
    ["aa"],
    // Alpha-3 shaped but not assigned, or a withdrawn code.
    ["XXX"],
    ["GER"],
    ["ANT"],
    // Wrong length, separators, digits, names.
    ["i"],
    ["ital"],
    ["it-IT"],
    ["i t"],
    ["380"],
    ["Italy"],
  ])("%p -> undefined", (code) => {
    expect(toAlpha3Country(code)).toBeUndefined()
  })

  it("holds all 249 assigned codes, each a distinct upper-case alpha-3", () => {
    expect(ALPHA3_BY_ALPHA2.size).toBe(249)
    for (const [alpha2, alpha3] of ALPHA3_BY_ALPHA2) {
      expect(alpha2).toMatch(/^[A-Z]{2}$/)
      expect(alpha3).toMatch(/^[A-Z]{3}$/)
    }
    expect(new Set(ALPHA3_BY_ALPHA2.values()).size).toBe(249)
  })

  it("returns every alpha-3 of the table unchanged", () => {
    for (const alpha3 of ALPHA3_BY_ALPHA2.values()) expect(toAlpha3Country(alpha3)).toBe(alpha3)
  })

  it("produces only codes the gateway simulator accepts (its list was written separately)", () => {
    for (const alpha3 of ALPHA3_BY_ALPHA2.values()) expect(isCountryAlpha3(alpha3)).toBe(true)
  })
})

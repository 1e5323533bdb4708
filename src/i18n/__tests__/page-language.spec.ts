import { readFileSync } from "node:fs"
import { join } from "node:path"
import { countryLanguage, pageLanguage, preferredLanguageTag, requestedLanguage } from "../page-language"

/** The cases the storefront kit's builders are tested against too (storefront/src/__tests__/session-data.spec.ts). */
const LANGUAGE_TAGS = JSON.parse(
  readFileSync(join(__dirname, "..", "..", "..", "test-support", "language-tags.json"), "utf8"),
) as { accepted: string[]; refused: string[]; unknownLanguage: string[] }

describe("requestedLanguage", () => {
  it.each([
    ["it", "ita"],
    ["it-IT", "ita"],
    ["IT-it", "ita"],
    ["pt_BR", "por"],
    ["zh-Hans-CN", "zho"],
    ["ca-ES-valencia", "cat"],
    ["ita", "ita"],
    ["ger", "deu"],
    [" en-GB ", "eng"],
  ])("%p -> %s", (value, code) => {
    expect(requestedLanguage(value)).toBe(code)
  })

  it.each([
    [undefined],
    [null],
    [42],
    [["it"]],
    [""],
    ["italiano"],
    ["it-IT,it;q=0.9"],
    ["en_US.UTF-8"],
    ["*"],
    ["qq"],
    ["tlh"],
    ["x-klingon"],
    ["it--IT"],
  ])("%p names no language the gateway knows", (value) => {
    expect(requestedLanguage(value)).toBeUndefined()
  })

  it.each(LANGUAGE_TAGS.accepted)("reads %p, as the storefront kit does", (value) => {
    expect(requestedLanguage(value)).toMatch(/^[a-z]{3}$/)
  })

  it.each([...LANGUAGE_TAGS.refused, ...LANGUAGE_TAGS.unknownLanguage])("refuses %p", (value) => {
    expect(requestedLanguage(value)).toBeUndefined()
  })
})

describe("preferredLanguageTag", () => {
  it.each([
    ["it-IT", "it-IT"],
    ["it-IT,it;q=0.9,en;q=0.8", "it-IT"],
    // Weights, not the order, decide; equal weights keep the header's order.
    ["en;q=0.3, de;q=0.8, fr;q=0.5", "de"],
    ["fr;q=0.5, es;q=0.5", "fr"],
    ["en;q=0.9, it", "it"],
    ["en;Q=0.2, it;q=1.000", "it"],
    // `*` names no language: the next entry, or none.
    ["*, it;q=0.5", "it"],
    ["it;q=0.1, *", "it"],
    // Unknown languages fall through to the next known one.
    ["tlh, x-klingon;q=0.9, it;q=0.8", "it"],
    ["english, de", "de"],
    // q=0 refuses a language; an unreadable weight is not taken as 1.
    ["it;q=0, en;q=0.1", "en"],
    ["it;q=2, en;q=0.1", "en"],
    ["it;q=abc, en;q=0.1", "en"],
    ["it;q=0.1234, en;q=0.1", "en"],
    // A header split over several lines.
    [["en;q=0.2", "it"], "it"],
  ])("%p -> %p", (header, tag) => {
    expect(preferredLanguageTag(header)).toBe(tag)
  })

  it.each([[undefined], [null], [""], ["*"], [" * "], ["tlh"], ["it;q=0"], [",,;"], [[]]])(
    "%p names no language",
    (header) => {
      expect(preferredLanguageTag(header)).toBeUndefined()
    },
  )
})

describe("countryLanguage", () => {
  it.each([
    ["it", "ita"],
    ["IT", "ita"],
    ["sm", "ita"],
    ["de", "deu"],
    ["at", "deu"],
    ["ch", "deu"],
    ["fr", "fra"],
    ["es", "spa"],
    ["mx", "spa"],
    ["br", "por"],
    ["us", "eng"],
    ["jp", "jpn"],
  ])("%p -> %s", (country, code) => {
    expect(countryLanguage(country)).toBe(code)
  })

  it.each([[undefined], [null], [""], ["zz"], ["xk"], ["uk"], ["ITA"], ["i"]])(
    "%p is no assigned country: no clue",
    (country) => {
      expect(countryLanguage(country)).toBeUndefined()
    },
  )
})

describe("pageLanguage: the first rung that names a language wins", () => {
  const allClues = { requested: "fr", locale: "de-DE", shippingCountry: "it", billingCountry: "es" }

  it("takes the storefront's language over everything else", () => {
    expect(pageLanguage(allClues, "eng")).toBe("fra")
  })

  it("takes Accept-Language's choice when the storefront asked for none, or for one nobody knows", () => {
    expect(pageLanguage({ ...allClues, requested: undefined }, "eng")).toBe("deu")
    expect(pageLanguage({ ...allClues, requested: "klingon" }, "eng")).toBe("deu")
  })

  it("takes the shipping country's language when the header named none (a server action's `*`)", () => {
    const locale = preferredLanguageTag("*")
    expect(pageLanguage({ ...allClues, requested: undefined, locale }, "eng")).toBe("ita")
  })

  it("takes the billing country's when there is no shipping country, or an unknown one", () => {
    const clues = { billingCountry: "es", locale: null }
    expect(pageLanguage({ ...clues, shippingCountry: null }, "eng")).toBe("spa")
    expect(pageLanguage({ ...clues, shippingCountry: "zz" }, "eng")).toBe("spa")
  })

  it("takes the option when no clue names a language", () => {
    expect(pageLanguage({}, "eng")).toBe("eng")
    expect(
      pageLanguage({ requested: "tlh", locale: "x-klingon", shippingCountry: "zz", billingCountry: "" }, "ita"),
    ).toBe("ita")
  })

  it.each([[""], ["en"], ["ENG"], ["engl"], [" eng"]])("refuses the fallback %p, naming the argument", (fallback) => {
    expect(() => pageLanguage({ requested: "it" }, fallback)).toThrow(/^fallback: /)
  })
})

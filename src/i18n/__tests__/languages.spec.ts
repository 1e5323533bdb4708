import { isLanguageAlpha3 } from "../../simulator/iso-codes"
import { ISO6392_BY_ISO6391, isIso6392Language, toIso6391Language, toIso6392Language } from "../languages"

describe("toIso6392Language", () => {
  it.each([
    // The languages of the Nexi hosted page.
    ["it", "ita"],
    ["en", "eng"],
    ["es", "spa"],
    ["fr", "fra"],
    ["de", "deu"],
    ["ja", "jpn"],
    ["pt", "por"],
    ["ru", "rus"],
    ["ar", "ara"],
    ["zh", "zho"],
    // Region, script and variant subtags are dropped.
    ["it-IT", "ita"],
    ["de-CH", "deu"],
    ["pt-BR", "por"],
    ["zh-Hans-CN", "zho"],
    ["sr-Latn-RS", "srp"],
    ["ca-ES-valencia", "cat"],
    // POSIX and other separators.
    ["en_US", "eng"],
    ["en_US.UTF-8", "eng"],
    ["sr@latin", "srp"],
    ["nl.UTF-8", "nld"],
    ["it-IT,it;q=0.9,en;q=0.8", "ita"],
    ["fr;q=0.5", "fra"],
    // Any case, surrounding blanks.
    ["IT", "ita"],
    ["EN-gb", "eng"],
    ["  de_AT  ", "deu"],
    // Languages with distinct B and T codes come out as T.
    ["cs", "ces"],
    ["nl", "nld"],
    ["el", "ell"],
    ["fa", "fas"],
    ["is", "isl"],
    ["mk", "mkd"],
    ["ms", "msa"],
    ["mi", "mri"],
    ["ro", "ron"],
    ["sk", "slk"],
    ["sq", "sqi"],
    ["hy", "hye"],
    ["eu", "eus"],
    ["my", "mya"],
    ["ka", "kat"],
    ["bo", "bod"],
    ["cy", "cym"],
    // 639-1 codes whose 639-2 code does not start with them.
    ["kw", "cor"],
    ["rw", "kin"],
    ["lb", "ltz"],
    ["ig", "ibo"],
    ["nb", "nob"],
    ["no", "nor"],
    // Withdrawn 639-1 codes still emitted by Java's Locale.
    ["iw", "heb"],
    ["in-ID", "ind"],
    ["ji", "yid"],
    ["mo", "ron"],
    // Three-letter input: T codes pass, B codes become T.
    ["ita", "ita"],
    ["DEU", "deu"],
    ["ger", "deu"],
    ["fre-FR", "fra"],
    ["chi", "zho"],
    ["cze", "ces"],
    ["dut", "nld"],
    ["wel", "cym"],
  ])("%p -> %s", (locale, code) => {
    expect(toIso6392Language(locale)).toBe(code)
  })

  it.each([
    [undefined],
    [null],
    [""],
    ["   "],
    ["-"],
    ["_US"],
    ["e"],
    ["english"],
    ["deutsch"],
    ["12"],
    ["i-klingon"],
    // Well-formed but not a language this table knows.
    ["qq"],
    ["xx-XX"],
    ["und"],
    ["mul"],
    ["haw"],
    ["sh"],
  ])("%p -> undefined, so the caller tries its next clue", (locale) => {
    expect(toIso6392Language(locale)).toBeUndefined()
  })

  it("covers every ISO 639-1 language, each with a distinct lower-case 639-2 code", () => {
    expect(ISO6392_BY_ISO6391.size).toBe(183)
    for (const [iso6391, iso6392] of ISO6392_BY_ISO6391) {
      expect(iso6391).toMatch(/^[a-z]{2}$/)
      expect(iso6392).toMatch(/^[a-z]{3}$/)
      expect(toIso6392Language(iso6391)).toBe(iso6392)
    }
    expect(new Set(ISO6392_BY_ISO6391.values()).size).toBe(183)
  })

  it("produces only codes the gateway simulator accepts (it asks Node's ICU data)", () => {
    for (const iso6392 of ISO6392_BY_ISO6391.values()) expect(isLanguageAlpha3(iso6392)).toBe(true)
  })
})

describe("toIso6391Language", () => {
  it.each([
    ["it-IT", "it"],
    ["ita", "it"],
    ["ger", "de"],
    ["pt_BR", "pt"],
    ["iw", "he"],
  ])("reads %s as %s", (locale, code) => {
    expect(toIso6391Language(locale)).toBe(code)
  })

  it.each([["english"], ["tlh"], [""], [null]])("gives nothing for %s", (locale) => {
    expect(toIso6391Language(locale)).toBeUndefined()
  })
})

describe("isIso6392Language", () => {
  it.each([
    ["ita", true],
    ["eng", true],
    ["deu", true],
    ["zho", true],
    ["cym", true],
    // Bibliographic forms are not what the gateway is sent.
    ["ger", false],
    ["fre", false],
    // Upper case is not the wire form.
    ["ITA", false],
    ["it", false],
    ["", false],
    ["xxx", false],
    [" ita", false],
  ])("%p -> %p", (code, known) => {
    expect(isIso6392Language(code)).toBe(known)
  })
})

/**
 * The language of a payment page, from the best clue the store has (issue #25): the language
 * the storefront asked for, else the shopper's Accept-Language when it names one, else the
 * language of the cart's shipping country, then its billing country, else the store's option.
 * Pure and in one place, so every rung is a unit test; the callers only gather the clues.
 */
import { ALPHA3_BY_ALPHA2 } from "./countries"
import { toIso6392Language } from "./languages"

/**
 * The key of the session data under which a storefront chooses the shopper's language ("it",
 * "it-IT"): the hosted page's for a card, the payment app's for a mobile payment.
 */
export const LANGUAGE_KEY = "language"

/**
 * A language tag as a storefront writes one: "it", "it-IT", "pt_BR", "zh-Hans-CN", or an ISO
 * 639-2 code ("ita"). Stricter than what toIso6392Language reads, so a header, a POSIX locale
 * with a charset or a language's name is refused rather than guessed at.
 */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*$/i

/** Accept-Language's weight: 0 to 1, at most three decimals (RFC 9110, 12.4.2). */
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i

/**
 * The ISO 639-2 code of a language the storefront asked for, or undefined when `value` is no
 * language tag of a language the gateway knows (the store route refuses such a value with a
 * 400; the provider, called by others too, passes over it).
 */
export function requestedLanguage(value: unknown): string | undefined {
  if (typeof value !== "string" || !LANGUAGE_TAG.test(value.trim())) return undefined
  return toIso6392Language(value)
}

/**
 * The shopper's most wanted language tag in an Accept-Language header that names a language
 * the gateway knows: by weight, the header's order among equal weights. `*` (what Node's fetch
 * sends from a storefront's server action) names no language, `q=0` means "not this one", and
 * an entry whose weight cannot be read is passed over, not taken as 1.
 */
export function preferredLanguageTag(header: string | readonly string[] | null | undefined): string | undefined {
  const value = typeof header === "string" ? header : header?.join(",")
  const ranked = (value ?? "")
    .split(",")
    .map((entry, position) => {
      const [tag = "", ...parameters] = entry.split(";").map((part) => part.trim())
      const weight = parameters.find((parameter) => /^q=/i.test(parameter))
      const quality = weight === undefined ? 1 : QUALITY.test(weight) ? Number(weight.slice(2)) : Number.NaN
      return { tag, quality, position }
    })
    .filter(({ tag, quality }) => quality > 0 && requestedLanguage(tag) !== undefined)
    .sort((a, b) => b.quality - a.quality || a.position - b.position)
  return ranked[0]?.tag
}

/**
 * The language most spoken in a country (ISO 3166-1 alpha-2, any case), from the likely-subtags
 * data of Unicode CLDR that Node's ICU carries: "IT" -> "ita", "CH" -> "deu", "CA" -> "eng".
 * A code that is no assigned country gives undefined (ICU would answer English for any unknown
 * region, which is a guess, not a clue).
 */
export function countryLanguage(country: string | null | undefined): string | undefined {
  const code = country?.trim().toUpperCase()
  if (!code || !ALPHA3_BY_ALPHA2.has(code)) return undefined
  const likely = new Intl.Locale(`und-${code}`).maximize().language
  return likely === "und" ? undefined : toIso6392Language(likely)
}

export interface LanguageClues {
  /** `language` of the session data the storefront sent. */
  requested?: unknown
  /** The tag preferredLanguageTag chose from the request's Accept-Language. */
  locale?: string | null
  /** The cart's addresses as the server read them; never what a storefront sent. */
  shippingCountry?: string | null
  billingCountry?: string | null
}

/**
 * The ISO 639-2 code a payment page is opened in. `fallback` (the store's option) is checked on
 * every call, so a misconfigured default fails on the first payment rather than on the first
 * shopper without any clue.
 */
export function pageLanguage(clues: LanguageClues, fallback: string): string {
  if (!/^[a-z]{3}$/.test(fallback)) {
    throw new Error(`fallback: "${fallback}" is not a lower-case ISO 639-2 code such as "eng"`)
  }
  return (
    requestedLanguage(clues.requested) ??
    toIso6392Language(clues.locale) ??
    countryLanguage(clues.shippingCountry) ??
    countryLanguage(clues.billingCountry) ??
    fallback
  )
}

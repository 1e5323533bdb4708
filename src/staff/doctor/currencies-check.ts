/**
 * Check 5: every currency the store's regions sell in is one the plugin converts to minor units
 * (src/money/currencies.ts refuses what it does not know rather than guess) and, where the
 * gateway's payment methods say per currency what they accept, one the gateway takes.
 */
import type { PaymentMethod } from "../../gateway/schemas"
import { isKnownCurrency } from "../../money/currencies"
import { type DoctorCheck, fail, pass, warn } from "./check"

/** Field names under which a gateway could list a method's currencies; the contract names none. */
const CURRENCY_FIELDS = ["currencies", "supportedCurrencies", "currencyList", "currency"]

/** The currencies a payment method lists, or undefined when it says nothing about them. */
export function currenciesOfMethod(method: PaymentMethod): string[] | undefined {
  const record = method as Record<string, unknown>
  for (const field of CURRENCY_FIELDS) {
    const value = record[field]
    if (typeof value === "string" && value !== "") return [value.toUpperCase()]
    if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      return value.map((item) => item.toUpperCase())
  }
  return undefined
}

export const currenciesCheck: DoctorCheck = {
  id: "currencies",
  title: "Region currencies",
  blocking: true,
  async run({ currencies, paymentMethods }) {
    if (currencies === undefined || currencies.length === 0) {
      return warn(
        "No region currencies were given, so none was checked.",
        "Pass each currency the store sells in (--currency EUR, repeatable, or NEXI_CURRENCIES=EUR,USD), or run the check from the admin (Settings > Nexi), which reads the regions.",
      )
    }
    const codes = [...new Set(currencies.map((code) => code.toUpperCase()))].sort()
    const unknown = codes.filter((code) => !isKnownCurrency(code))
    const read = await paymentMethods()
    const cardMethods = read.ok ? read.list.paymentMethods.filter((method) => method.methodType === "CARD") : []
    const listed = cardMethods.map(currenciesOfMethod).filter((list): list is string[] => list !== undefined)
    const unlisted =
      listed.length === 0
        ? []
        : codes.filter((code) => !unknown.includes(code) && !listed.some((list) => list.includes(code)))
    const problems = [
      ...unknown.map((code) => `${code} is not an ISO 4217 currency the plugin converts to minor units`),
      ...unlisted.map((code) => `the gateway lists no card payment method for ${code}`),
    ]
    const scope = !read.ok
      ? "The payment methods could not be read, so only the conversion was checked."
      : listed.length === 0
        ? "The gateway's payment methods carry no per-currency data, so only the conversion was checked."
        : "Checked against the currencies the gateway's card methods list."
    if (problems.length > 0) {
      return fail(
        `${problems.join("; ")}. ${scope}`,
        "Remove the currency from the region, or ask Nexi to enable it on the terminal; a currency the plugin does not know cannot be charged at all.",
      )
    }
    return pass(`${codes.join(", ")}: every region currency converts to minor units. ${scope}`)
  },
}

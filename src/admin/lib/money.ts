/// <reference lib="es2023.intl" />
/**
 * Shows the exact decimal strings the /admin/nexi routes answer with ("12.50" EUR) the way the
 * rest of the admin shows money ("€12.50"). The string goes to Intl as a string, which formats
 * it digit for digit (no float on the way), and the fraction digits are never fewer than the
 * string has: an amount the gateway reports is shown as reported, never rounded for display.
 */
import type { NexiMoney } from "../../staff/contract"

/** What the widget shows where the gateway reports no amount. */
export const NO_VALUE = "-"

const DECIMAL = /^-?\d+(\.\d+)?$/

export function formatMoney(money: NexiMoney | null | undefined, locale?: string): string {
  if (!money) return NO_VALUE
  const { amount, currency } = money
  if (!DECIMAL.test(amount)) return `${amount} ${currency}`.trim()
  try {
    const decimals = amount.split(".")[1]?.length ?? 0
    const currencyDecimals = new Intl.NumberFormat(locale, { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits as number
    const formatter = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: currencyDecimals,
      maximumFractionDigits: Math.max(decimals, currencyDecimals),
    })
    // Intl.NumberFormat v3 (Chrome 106, Node 19; the es2023.intl typings) formats a decimal
    // string exactly; DECIMAL above guarantees the string is one.
    return formatter.format(amount as Intl.StringNumericLiteral)
  } catch {
    // A currency code Intl refuses (not three letters): show the raw pair rather than nothing.
    return `${amount} ${currency}`
  }
}

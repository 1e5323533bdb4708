/**
 * Exact amounts as whole minor units (BigInt), for the widget's arithmetic on the decimal
 * strings the routes report ("29.89" EUR less "12.34" EUR) and on what staff type. The server
 * does this with bignumber.js (src/money/amount.ts); the admin bundle leaves bare imports to
 * the store's Vite, which would have to pre-bundle bignumber.js for the dashboard, so BigInt
 * does it here, with the same ISO 4217 exponents (src/money/currencies.ts, no dependencies).
 */
import { currencyExponent } from "../../money/currencies"

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/

/**
 * "12.34" EUR -> 1234n. Undefined for anything but a plain non-negative decimal with at most
 * the currency's decimals: nothing is rounded, so nothing is lost. Throws UnknownCurrencyError
 * for a currency without a known exponent.
 */
export function toMinor(amount: string, currency: string): bigint | undefined {
  const exponent = currencyExponent(currency)
  const match = PLAIN_DECIMAL.exec(amount)
  if (!match) return undefined
  const [, whole, fraction = ""] = match
  if (fraction.length > exponent) return undefined
  return BigInt(whole + fraction.padEnd(exponent, "0"))
}

/** 1234n EUR -> "12.34"; 1200n JPY -> "1200": always the currency's number of decimals. */
export function toMajor(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency)
  const sign = minor < 0n ? "-" : ""
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, "0")
  if (exponent === 0) return sign + digits
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

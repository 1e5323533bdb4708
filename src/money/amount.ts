/**
 * Conversion between Medusa's amounts (major units, BigNumberInput) and the gateways'
 * minor units, by the ISO 4217 exponent of the currency. Decimal arithmetic only:
 * 2.675 EUR is 268 cents here, where float math gives 267.
 *
 * Rounding rule: an amount with more decimals than the currency has is rounded half-up
 * (away from zero at exactly one half) to the currency's minor unit. Medusa's own totals carry
 * such decimals (22% tax on 12.20 is 2.684), so refusing them would make ordinary carts
 * unpayable. What is refused is an amount that is not zero but smaller than one minor unit
 * (0.004 EUR): rounding would send nothing ("0") or double it (0.005 EUR as 1 cent).
 */
import BigNumber from "bignumber.js"
import { currencyExponent } from "./currencies"

/** What Medusa hands a provider: a number, a decimal string, bignumber.js, or its own BigNumber / raw `{ value }`. */
export type AmountInput =
  | number
  | string
  | BigNumber
  | { value: string | number; precision?: number }
  | { raw?: { value: string | number }; bigNumber?: BigNumber; toJSON?: () => unknown }

export class InvalidAmountError extends Error {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`)
    this.name = "InvalidAmountError"
  }
}

/**
 * Plain decimal or scientific notation only. bignumber.js would also read "0x1F", "0b11" and
 * "0o17"; an amount written that way is a bug upstream, not 31 euros.
 */
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i

/** Reads any amount form Medusa uses into an exact decimal. */
export function toDecimal(amount: AmountInput, field = "amount"): BigNumber {
  const text = decimalText(amount, field)
  if (!DECIMAL_TEXT.test(text)) throw new InvalidAmountError(field, `"${text}" is not a finite decimal number`)
  return new BigNumber(text)
}

function decimalText(amount: AmountInput, field: string): string {
  if (typeof amount === "string") return amount.trim()
  // A JS number's shortest decimal form is what the caller typed (19.99 -> "19.99").
  if (typeof amount === "number") return String(amount)
  if (BigNumber.isBigNumber(amount)) return amount.toFixed()
  if (amount && typeof amount === "object") {
    // Medusa's BigNumber keeps `raw.value` at 20 significant digits ("1.2345678901234567890e+23")
    // but its `bigNumber` exactly, so the latter wins when present.
    if ("bigNumber" in amount && BigNumber.isBigNumber(amount.bigNumber)) return amount.bigNumber.toFixed()
    if ("value" in amount && amount.value !== undefined) return String(amount.value)
    if ("raw" in amount && amount.raw?.value !== undefined) return String(amount.raw.value)
  }
  throw new InvalidAmountError(field, "is not an amount (expected a number, a decimal string or a BigNumber)")
}

/** 19.99 EUR -> "1999"; 5000 JPY -> "5000"; 1.234 KWD -> "1234". Negative amounts are refused. */
export function toMinorUnits(amount: AmountInput, currencyCode: string, field = "amount"): string {
  const major = toDecimal(amount, field)
  // isLessThan, not isNegative: "-0" is zero, not a negative amount.
  if (major.isLessThan(0)) throw new InvalidAmountError(field, `must not be negative (got ${major.toFixed()})`)
  const exponent = currencyExponent(currencyCode)
  const minor = major.shiftedBy(exponent)
  if (!minor.isZero() && minor.isLessThan(1)) {
    const smallest = new BigNumber(1).shiftedBy(-exponent).toFixed(exponent)
    throw new InvalidAmountError(
      field,
      `${major.toFixed()} ${currencyCode.toUpperCase()} is less than one minor unit of ${currencyCode.toUpperCase()} (${smallest}) and cannot be charged or refunded`,
    )
  }
  return roundToMinor(major, exponent).toFixed(0)
}

function roundToMinor(major: BigNumber, exponent: number): BigNumber {
  return major.shiftedBy(exponent).integerValue(BigNumber.ROUND_HALF_UP)
}

/**
 * Rounding can set Medusa's unrounded totals and the gateway's rounded ones one minor unit
 * apart at most, when every write followed minorUnitsToSend; more is not rounding.
 */
const ROUNDING_SLACK = 1n

export interface TotalsStep {
  /** This capture or refund, in major units, as Medusa records it (unrounded). */
  amount: AmountInput
  /** Medusa's total of the payment's captures (or refunds) before this one, in major units (unrounded). */
  before: AmountInput
  currencyCode: string
  /** What the gateway still holds for this write (capturable, or refundable), when known. */
  leftMinor?: bigint
  field?: string
}

/**
 * Money by totals: the minor units one capture or refund sends are the rounded total after it
 * minus the rounded total before it. Rounding each amount on its own drifts: two refunds of
 * 1.005 EUR would send 101 + 101 where Medusa shows 2.01; by totals they send 101 + 100. A
 * result above what the gateway has left by rounding alone is capped at it.
 */
export function minorUnitsToSend(step: TotalsStep): bigint {
  const field = step.field ?? "amount"
  const currency = step.currencyCode.toUpperCase()
  const amount = toDecimal(step.amount, field)
  // Refuses a negative amount and one below a minor unit, as for any single amount.
  toMinorUnits(amount, currency, field)
  const before = toDecimal(step.before, `${field} (Medusa's total before it)`)
  if (before.isLessThan(0)) throw new InvalidAmountError(`${field} (Medusa's total before it)`, "must not be negative")
  const after = before.plus(amount)
  const exponent = currencyExponent(currency)
  const send = BigInt(roundToMinor(after, exponent).minus(roundToMinor(before, exponent)).toFixed(0))
  const left = step.leftMinor
  // More than rounding explains is left for the gateway (or the caller's own checks) to refuse.
  return left !== undefined && left > 0n && send > left && send - left <= ROUNDING_SLACK ? left : send
}

/**
 * Whether Medusa's rounded total after this step stays below the rounded `limit` (a payment's
 * captures, for its refunds). While it does, a gateway that agrees with Medusa has room for the
 * step, and rounding cannot reach past what it holds.
 */
export function leavesRoom(step: Omit<TotalsStep, "leftMinor">, limit: AmountInput): boolean {
  const field = step.field ?? "amount"
  const exponent = currencyExponent(step.currencyCode.toUpperCase())
  const after = toDecimal(step.before, `${field} (Medusa's total before it)`).plus(toDecimal(step.amount, field))
  return roundToMinor(after, exponent).isLessThan(roundToMinor(toDecimal(limit, `${field} (the limit)`), exponent))
}

/**
 * A total (Medusa's captures or refunds, or what is left of them) in whole minor units, rounded
 * half-up as minorUnitsToSend rounds totals. Unlike one amount to send, a total below one minor
 * unit is no mistake (0.4 JPY left of a payment of 1234.4 JPY captured as 1234), nor is a negative
 * one (what is held when Medusa refunded 84.46 EUR of 84.456).
 */
export function totalMinorUnits(total: AmountInput, currencyCode: string, field = "total"): bigint {
  return BigInt(roundToMinor(toDecimal(total, field), currencyExponent(currencyCode)).toFixed(0))
}

/** toMinorUnits for what a shopper is asked to pay: a payment of nothing is refused too. */
export function toPayableMinorUnits(amount: AmountInput, currencyCode: string, field = "amount"): string {
  const minor = toMinorUnits(amount, currencyCode, field)
  if (minor === "0")
    throw new InvalidAmountError(field, `a payment of 0 ${currencyCode.toUpperCase()} cannot be started`)
  return minor
}

/** "1999" EUR -> 19.99 as an exact decimal. */
export function fromMinorUnits(minor: string | number | bigint, currencyCode: string, field = "amount"): BigNumber {
  const text = String(minor)
  if (!/^-?\d+$/.test(text)) throw new InvalidAmountError(field, `"${text}" is not a whole number of minor units`)
  return new BigNumber(text).shiftedBy(-currencyExponent(currencyCode))
}

/** The major amount as a plain decimal string ("19.99", "5000", "1.234"), for Medusa and for people. */
export function minorToMajorString(minor: string | number | bigint, currencyCode: string): string {
  return fromMinorUnits(minor, currencyCode).toFixed(currencyExponent(currencyCode))
}

/** "1999" EUR -> "19.99 EUR": minor units as people read them in messages, the currency as given. */
export function minorMoneyText(minor: string | number | bigint, currency: string): string {
  return `${minorToMajorString(minor, currency)} ${currency}`
}

/** "25.50 EUR", "5000 JPY", "1.234 KWD": an exact major amount rounded to its currency, as staff read it in messages. */
export function moneyText(major: AmountInput, currency: string): string {
  const code = currency.toUpperCase()
  return minorMoneyText(toMinorUnits(major, code), code)
}

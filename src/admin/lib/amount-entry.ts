/**
 * The amount staff type into the Capture and Refund dialogs, checked before anything is sent
 * so the dialog can say what is wrong, naming the field: empty, not a number, more decimals
 * than the currency has, zero, or more than is left to capture or refund. Medusa and the
 * gateway still decide; this only spares staff a round trip and a partial surprise.
 *
 * Medusa's routes take the amount as a JSON number. A decimal string with up to about 15
 * significant digits survives the trip to a double and back unchanged (Medusa reads it with
 * bignumber.js, which takes a number's shortest decimal form), and an amount that would not
 * is refused here rather than sent rounded.
 */

import { currencyExponent } from "../../money/currencies"
import type { NexiMoney } from "../../staff/contract"
import { toMajor, toMinor } from "./minor-units"

export type AmountVerb = "capture" | "refund"

export interface CheckedAmount {
  /** What Medusa's route gets; equal to `money.amount` digit for digit. */
  amount: number
  /** The amount with the currency's decimals, for messages. */
  money: NexiMoney
}

export type AmountEntry = ({ ok: true } & CheckedAmount) | { ok: false; problem: string }

const FIELD = "Amount"

function refused(detail: string): AmountEntry {
  return { ok: false, problem: `${FIELD}: ${detail}` }
}

function example(exponent: number): string {
  return exponent === 0 ? "1200" : `12.${"5".padEnd(exponent, "0")}`
}

/** `remainder`: what is left to capture or refund, in the payment's currency (a known one). */
export function readAmountEntry(typed: string, remainder: NexiMoney, verb: AmountVerb): AmountEntry {
  const text = typed.trim()
  const { currency } = remainder
  const exponent = currencyExponent(currency)
  if (!text) return refused(`enter the amount to ${verb}, in ${currency}.`)
  if (text.startsWith("-")) return refused(`must be more than 0 (got ${text}).`)
  if (text.includes(","))
    return refused(
      `write the decimals after a dot, like ${example(exponent)}, without thousands separators (got "${text}").`,
    )
  if (!/^\d+(\.\d+)?$/.test(text)) return refused(`"${text}" is not a number; write it like ${example(exponent)}.`)

  const decimals = text.split(".")[1]?.length ?? 0
  if (decimals > exponent) {
    const allowed = exponent === 0 ? `${currency} has no decimals` : `${currency} has ${exponent} decimals`
    return refused(`${allowed}; ${text} has ${decimals}.`)
  }
  const minor = toMinor(text, currency)!
  if (minor === 0n) return refused("must be more than 0.")
  if (minor > toMinor(remainder.amount, currency)!)
    return refused(`at most ${remainder.amount} ${currency} is left to ${verb} (got ${text}).`)

  const major = toMajor(minor, currency)
  const amount = Number(major)
  if (toMinor(String(amount), currency) !== minor) return refused(`${text} has too many digits to be sent exactly.`)
  return { ok: true, amount, money: { amount: major, currency } }
}

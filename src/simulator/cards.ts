/**
 * Card checks and outcomes. The sandbox test cards of the real gateway (docs/contract/gateway.md)
 * decide the outcome here too, so a store tested against the simulator behaves the same
 * against the sandbox. Any other Luhn-valid number of an accepted circuit is approved
 * without a challenge. Only the masked form of a number ever leaves this module.
 */
import { passesLuhn } from "../http/luhn"

export type CardCircuit = "VISA" | "MC" | "MAESTRO" | "AMEX"

/** APPROVE: frictionless 3DS; CHALLENGE: the shopper must pass a 3DS challenge. */
export type CardBehaviour = "APPROVE" | "CHALLENGE" | "DECLINE" | "FAIL_3DS"

const TEST_CARDS: ReadonlyMap<string, CardBehaviour> = new Map([
  ["4999340261977289", "APPROVE"],
  ["4349940199004549", "CHALLENGE"],
  ["4513532658051267", "APPROVE"],
  ["5593497948332903", "APPROVE"],
  ["5472886984585836", "CHALLENGE"],
  ["4349940199997007", "FAIL_3DS"],
  ["4742158750987704", "FAIL_3DS"],
  ["5515931855858729", "DECLINE"],
  ["5311082291191543", "FAIL_3DS"],
])

/** The sandbox numbers, for test suites that check their logs for leaked card numbers. */
export const TEST_CARD_NUMBERS: readonly string[] = [...TEST_CARDS.keys()]

export interface CardInput {
  pan: string
  /** mmyy, as the gateway wants it; mm/yy, as a shopper types it, is accepted too. */
  expiryDate: string
  cvv?: string
}

export interface CardExpiry {
  month: number
  /** Four digits. */
  year: number
}

export interface CheckedCard {
  circuit: CardCircuit
  /** "***" and the last four digits: enough for a receipt, never the number. */
  maskedPan: string
  cardCountry: string
  behaviour: CardBehaviour
  /** Kept so that a card saved on a contract can be refused once it has expired. */
  expiry: CardExpiry
}

export type CardField = "pan" | "expiryDate" | "cvv"
export type CardCheck = { ok: true; card: CheckedCard } | { ok: false; field: CardField; message: string }

export function checkCard(input: CardInput, now: Date, options: { cvvRequired: boolean }): CardCheck {
  const pan = checkPan(input.pan)
  if (!pan.ok) return refuse("pan", pan.message)
  const expiry = checkExpiry(input.expiryDate, now)
  if (!expiry.ok) return refuse("expiryDate", expiry.message)
  const cvv = cvvProblem(pan.circuit, input.cvv, options)
  if (cvv !== undefined) return refuse("cvv", cvv)
  return {
    ok: true,
    card: {
      circuit: pan.circuit,
      maskedPan: `***${pan.digits.slice(-4)}`,
      cardCountry: "ITA",
      behaviour: TEST_CARDS.get(pan.digits) ?? "APPROVE",
      expiry: expiry.expiry,
    },
  }
}

/** unknownCircuit: a valid number of a circuit the merchant does not accept (Build's "brand not found"). */
export type PanCheck =
  | { ok: true; digits: string; circuit: CardCircuit }
  | { ok: false; reason: "invalid" | "unknownCircuit"; message: string }

export function checkPan(text: string): PanCheck {
  const digits = text.replace(/[\s-]/g, "")
  if (!/^\d{12,19}$/.test(digits)) return { ok: false, reason: "invalid", message: "must be 12 to 19 digits" }
  if (!passesLuhn(digits)) {
    return { ok: false, reason: "invalid", message: "is not a valid card number (check digit wrong)" }
  }
  const circuit = circuitOf(digits)
  if (circuit === undefined) {
    const message = "belongs to no circuit this merchant accepts (VISA, MC, MAESTRO, AMEX)"
    return { ok: false, reason: "unknownCircuit", message }
  }
  return { ok: true, digits, circuit }
}

export type ExpiryCheck =
  | { ok: true; expiry: CardExpiry }
  | { ok: false; reason: "invalid" | "expired"; message: string }

export function checkExpiry(text: string, now: Date): ExpiryCheck {
  const expiry = parseExpiry(text)
  if (expiry === undefined) {
    return { ok: false, reason: "invalid", message: "must be a month and year as mmyy or mm/yy, for example 1230" }
  }
  if (expiryHasPassed(expiry, now)) {
    return { ok: false, reason: "expired", message: `the card expired at the end of ${expiryText(expiry)}` }
  }
  return { ok: true, expiry }
}

/** What is wrong with a CVV for a card of this circuit (4 digits for AMEX, 3 for the others), or undefined. */
export function cvvProblem(
  circuit: CardCircuit,
  cvv: string | undefined,
  options: { cvvRequired: boolean },
): string | undefined {
  const digits = circuit === "AMEX" ? 4 : 3
  if (cvv === undefined || cvv === "") return options.cvvRequired ? `is required (${digits} digits)` : undefined
  return new RegExp(`^\\d{${digits}}$`).test(cvv) ? undefined : `must be ${digits} digits for a ${circuit} card`
}

/** A card is valid until the last moment of its expiry month (UTC). */
export function expiryHasPassed(expiry: CardExpiry, now: Date): boolean {
  return now.getTime() >= Date.UTC(expiry.year, expiry.month, 1)
}

/** "05/26", as printed on the card. */
export function expiryText(expiry: CardExpiry): string {
  return `${pad(expiry.month)}/${pad(expiry.year % 100)}`
}

function refuse(field: CardField, message: string): CardCheck {
  return { ok: false, field, message }
}

function circuitOf(pan: string): CardCircuit | undefined {
  const firstTwo = Number(pan.slice(0, 2))
  const firstFour = Number(pan.slice(0, 4))
  if (pan.startsWith("4")) return "VISA"
  if ((firstTwo >= 51 && firstTwo <= 55) || (firstFour >= 2221 && firstFour <= 2720)) return "MC"
  if (firstTwo === 34 || firstTwo === 37) return "AMEX"
  if (firstTwo === 50 || (firstTwo >= 56 && firstTwo <= 69)) return "MAESTRO"
  return undefined
}

function parseExpiry(text: string): CardExpiry | undefined {
  const match = /^(\d{2})\s*\/?\s*(\d{2})$/.exec(text.trim())
  if (!match) return undefined
  const month = Number(match[1])
  if (month < 1 || month > 12) return undefined
  return { month, year: 2000 + Number(match[2]) }
}

function pad(value: number): string {
  return String(value).padStart(2, "0")
}

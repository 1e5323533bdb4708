/**
 * The card a shopper's entry on the hosted page pays with: the card typed on the form, or on a
 * one-click payment (SUBSEQUENT_PAYMENT) the contract's saved card, which only its CVV unlocks.
 */
import { type CardField, type CheckedCard, checkCard, cvvProblem, expiryHasPassed } from "../cards"
import type { CardOnFile } from "../gateway/contracts"

/** What the shopper typed; the saved-card form has only the CVV. */
export interface ShopperEntry {
  pan?: string
  expiryDate?: string
  cvv?: string
}

export type PayingCard =
  | { ok: true; card: CheckedCard; savedCardExpired: boolean }
  | { ok: false; field: CardField; message: string }

export function payingCard(onFile: CardOnFile, entry: ShopperEntry, now: Date): PayingCard {
  if (onFile.kind === "saved") return savedCard(onFile.contract.card, entry, now)
  if (entry.pan === undefined) return refuse("pan", "is required")
  if (entry.expiryDate === undefined) return refuse("expiryDate", "is required (mmyy)")
  const check = checkCard({ pan: entry.pan, expiryDate: entry.expiryDate, cvv: entry.cvv }, now, { cvvRequired: true })
  return check.ok ? { ok: true, card: check.card, savedCardExpired: false } : check
}

/**
 * A number or expiry sent with a saved-card payment is refused rather than ignored: the caller
 * believes it pays with a card that is not the one the contract holds.
 */
function savedCard(card: CheckedCard, entry: ShopperEntry, now: Date): PayingCard {
  for (const field of ["pan", "expiryDate"] as const) {
    if (entry[field] !== undefined)
      return refuse(field, "must not be sent: this order pays with the contract's saved card (send only the CVV)")
  }
  const problem = cvvProblem(card.circuit, entry.cvv, { cvvRequired: true })
  if (problem !== undefined) return refuse("cvv", problem)
  // An expired saved card is a payment the issuer declines, not a typing mistake to correct.
  return { ok: true, card, savedCardExpired: expiryHasPassed(card.expiry, now) }
}

function refuse(field: CardField, message: string): PayingCard {
  return { ok: false, field, message }
}

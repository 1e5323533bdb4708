/**
 * The card a shopper's entry on the hosted page pays with: the card typed on the form, or on a
 * one-click payment (SUBSEQUENT_PAYMENT) the contract's saved card, which only its CVV unlocks.
 */
import { type CardField, type CheckedCard, checkCard, cvvProblem } from "../cards"
import { type CardOnFile, savedCardExpiry } from "../gateway/contracts"
import type { StoredContract } from "../gateway/store"

/** What the shopper typed; the saved-card form has only the CVV. */
export interface ShopperEntry {
  pan?: string
  expiryDate?: string
  cvv?: string
}

export type PayingCard =
  /** declineReason: the saved card cannot pay (expired, or its contract deactivated); the issuer declines. */
  { ok: true; card: CheckedCard; declineReason?: string } | { ok: false; field: CardField; message: string }

export function payingCard(onFile: CardOnFile, entry: ShopperEntry, now: Date): PayingCard {
  if (onFile.kind === "saved") return savedCard(onFile.contract, entry, now)
  if (entry.pan === undefined) return refuse("pan", "is required")
  if (entry.expiryDate === undefined) return refuse("expiryDate", "is required (mmyy)")
  const check = checkCard({ pan: entry.pan, expiryDate: entry.expiryDate, cvv: entry.cvv }, now, { cvvRequired: true })
  return check.ok ? { ok: true, card: check.card } : check
}

/**
 * A number or expiry sent with a saved-card payment is refused rather than ignored: the caller
 * believes it pays with a card that is not the one the contract holds.
 */
function savedCard(contract: StoredContract, entry: ShopperEntry, now: Date): PayingCard {
  const { card } = contract
  for (const field of ["pan", "expiryDate"] as const) {
    if (entry[field] !== undefined)
      return refuse(field, "must not be sent: this order pays with the contract's saved card (send only the CVV)")
  }
  const problem = cvvProblem(card.circuit, entry.cvv, { cvvRequired: true })
  if (problem !== undefined) return refuse("cvv", problem)
  // An expired saved card is a payment the issuer declines, not a typing mistake to correct.
  const declineReason =
    contract.state === "deactivated"
      ? `the saved card's contract ${contract.contractId} was deactivated`
      : savedCardExpiry(card, now)
  return { ok: true, card, ...(declineReason ? { declineReason } : {}) }
}

function refuse(field: CardField, message: string): PayingCard {
  return { ok: false, field, message }
}

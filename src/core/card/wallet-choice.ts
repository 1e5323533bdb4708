/**
 * Google Pay and Apple Pay: a card payment whose gateway page shows only the wallet's button
 * (`paymentSession.paymentService`, on the hosted page, a Build session and a payment link).
 * Which wallets a store offers is its `wallets` option, as the merchant's Nexi contract enables
 * them; the storefront asks for one in the card session's data (`wallet`), staff for a payment
 * link. A wallet the options do not enable is refused naming the field, before anything is
 * opened at the gateway: its page would only fail the shopper.
 */
import { WALLETS, type Wallet } from "../../gateway/schemas"
import { invalidData } from "../medusa-errors"
import { PAYMENT_METHOD_KEY, SAVE_CARD_KEY } from "./saved-card-choice"

/** What the storefront sets in a card session's data to pay with a wallet. */
export const WALLET_KEY = "wallet"

/** What shoppers and staff read for each wallet. */
export const WALLET_NAMES: Record<Wallet, string> = { GOOGLEPAY: "Google Pay", APPLEPAY: "Apple Pay" }

function isWallet(value: unknown): value is Wallet {
  return (WALLETS as readonly unknown[]).includes(value)
}

/** `value` as a wallet the store offers; an INVALID_DATA error naming `field` otherwise. */
export function enabledWallet(value: unknown, enabled: readonly Wallet[], field: string): Wallet {
  if (!isWallet(value)) {
    throw invalidData(
      `${field}: must be ${WALLETS.map((wallet) => `"${wallet}"`).join(" or ")}, or left out to pay by card`,
    )
  }
  if (!enabled.includes(value)) {
    const offered = enabled.length ? `it offers ${enabled.join(", ")}` : "it offers none"
    throw invalidData(
      `${field}: this store does not offer ${WALLET_NAMES[value]} (${value}); ${offered} (the card provider's \`wallets\` option).`,
    )
  }
  return value
}

/**
 * The wallet a card session's data asks for, or undefined for a card typed in. A wallet pays
 * with the card it holds: saving the card or paying with a saved one does not go with it.
 */
export function walletOfSessionData(
  data: Record<string, unknown> | undefined | null,
  enabled: readonly Wallet[],
): Wallet | undefined {
  const value = data?.[WALLET_KEY]
  if (value === undefined || value === null) return undefined
  const wallet = enabledWallet(value, enabled, `data.${WALLET_KEY}`)
  const savedCardChoice = [SAVE_CARD_KEY, PAYMENT_METHOD_KEY].find(
    (key) => data?.[key] !== undefined && data?.[key] !== null && data?.[key] !== false,
  )
  if (savedCardChoice) {
    throw invalidData(
      `data.${WALLET_KEY}: ${WALLET_NAMES[wallet]} pays with the card it holds, so it does not go with data.${savedCardChoice} (a card saved on this store): send one of the two.`,
    )
  }
  return wallet
}

/**
 * The `data` a storefront sends when it creates a Nexi payment session
 * (`POST /store/payment-collections/{id}/payment-sessions`, or the js-sdk's
 * `sdk.store.payment.initiatePaymentSession(cart, { provider_id, data })`). The plugin keeps
 * only the keys it documents and drops the rest, so a typo would pass silently: these builders
 * write exactly those keys, and refuse a wrong value with the field's name before any request.
 */
import type { NexiWallet } from "./payment-methods.js"

/** A value the storefront gave cannot be sent; `field` is the request's key it was for (consumer_id, save_card, ...). */
export class NexiInputError extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`)
    this.name = "NexiInputError"
  }
}

/**
 * The shopper's language, such as "it" or "en-GB": the hosted page's for a card (and for adding
 * a card, startSavingCard), the payment app's for a mobile payment. The plugin takes it over the request's Accept-Language (which a
 * server action sends as `*`) and the cart's country, and refuses one it does not know with a
 * 400 naming `data.language`.
 */
export interface LanguageChoice {
  language?: string
}

export type CardSessionInput = LanguageChoice & {
  /** Save the card once paid; a logged-in customer only (the plugin refuses a guest's). */
  saveCard?: boolean
  /**
   * With saveCard: the customer consents to the shop charging the saved card later without them,
   * for changes to their orders (contract MIT_UNSCHEDULED). Ask with an unticked checkbox; without
   * it the card only pays when the customer pays with it.
   */
  allowMerchantCharges?: boolean
  /** Pay with this saved card (nexcard_…, from listSavedCards); the hosted page asks only for the CVV. */
  paymentMethodId?: string
  /**
   * Where the shopper types the card: "hosted" (the default) on the gateway's hosted page, or
   * "build" in the gateway's card fields inside the checkout page (XPay Build, card-fields.ts).
   * A saved card always pays on the hosted page.
   */
  integration?: CardIntegration
  /**
   * Pay with Google Pay or Apple Pay (one of the card method's `wallets`): the gateway's page
   * shows only that wallet's button. A wallet pays with the card it holds: not with saveCard or
   * paymentMethodId.
   */
  wallet?: NexiWallet
}

export type CardIntegration = "hosted" | "build"

export type MobileSessionInput = LanguageChoice & {
  /** The number the shopper's payment app is registered with, e.g. "+39 333 123 4567". */
  mobileNumber: string
}

export type CardSessionData = {
  integration?: "build"
  wallet?: NexiWallet
  save_card?: true
  allow_merchant_charges?: true
  payment_method_id?: string
  language?: string
}
export type MobileSessionData = { consumer_id: string; language?: string }

/**
 * The store's rule for a language tag (src/i18n/page-language.ts, which the kit cannot import;
 * test-support/language-tags.json holds the cases both test): "it", "it-IT", "pt_BR", "en-a-bbb",
 * an ISO 639-2 code, spaces around allowed. Whether the gateway knows the language only the
 * store says (400 naming data.language).
 */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*$/i
const SAVED_CARD_ID = /^nexcard_[A-Za-z0-9]+$/
// What people type between digits: spaces, dots, dashes, brackets.
const NUMBER_PUNCTUATION = /[\s.\-()]/g
// E.164: at most 15 digits; fewer than 6 is no mobile number anywhere.
const MOBILE_NUMBER = /^\+?[0-9]{6,15}$/

/** `{ language }` when one is given and is a language tag; shared by every builder that takes one. */
export function languageData({ language }: LanguageChoice): { language?: string } {
  if (language === undefined) return {}
  if (!LANGUAGE_TAG.test(language.trim()))
    throw new NexiInputError("language", 'must be a language tag such as "it" or "en-GB"')
  return { language }
}

/** A card session's data: a new card, "save my card", or a saved card. */
export function cardSessionData(input: CardSessionInput = {}): CardSessionData {
  const { saveCard, allowMerchantCharges, paymentMethodId, integration, wallet } = input
  if (saveCard !== undefined && typeof saveCard !== "boolean")
    throw new NexiInputError("save_card", "must be true or false")
  if (allowMerchantCharges !== undefined && typeof allowMerchantCharges !== "boolean")
    throw new NexiInputError("allow_merchant_charges", "must be true or false")
  if (allowMerchantCharges && !saveCard) {
    throw new NexiInputError(
      "allow_merchant_charges",
      "only a card being saved (save_card: true) can allow the shop to charge it later",
    )
  }
  if (paymentMethodId !== undefined && !SAVED_CARD_ID.test(paymentMethodId)) {
    throw new NexiInputError("payment_method_id", "must be the id of one of the customer's saved cards (nexcard_…)")
  }
  if (saveCard && paymentMethodId !== undefined) {
    throw new NexiInputError("save_card", "cannot be combined with payment_method_id, whose card is saved already")
  }
  if (integration !== undefined && integration !== "hosted" && integration !== "build") {
    throw new NexiInputError(
      "integration",
      'must be "build" (the card fields in the checkout) or "hosted" (the hosted page)',
    )
  }
  if (integration === "build" && paymentMethodId !== undefined) {
    throw new NexiInputError(
      "integration",
      '"build" has a new card typed in the checkout\'s fields, and a saved card (payment_method_id) pays on the hosted page: send one of the two',
    )
  }
  if (wallet !== undefined && wallet !== "GOOGLEPAY" && wallet !== "APPLEPAY")
    throw new NexiInputError("wallet", 'must be "GOOGLEPAY" or "APPLEPAY", or left out to pay by card')
  if (wallet !== undefined && (saveCard || paymentMethodId !== undefined)) {
    throw new NexiInputError(
      "wallet",
      `pays with the card it holds, so it does not go with ${saveCard ? "save_card" : "payment_method_id"}: send one of the two`,
    )
  }
  return {
    // The hosted page is the plugin's default: only "build" is sent.
    ...(integration === "build" ? { integration } : {}),
    ...(wallet !== undefined ? { wallet } : {}),
    ...(saveCard ? { save_card: true as const } : {}),
    ...(allowMerchantCharges ? { allow_merchant_charges: true as const } : {}),
    ...(paymentMethodId !== undefined ? { payment_method_id: paymentMethodId } : {}),
    ...languageData(input),
  }
}

/**
 * A mobile payment session's data. Create this session only from the final "Place order"
 * button: the scheme sends the payment request to the shopper's app as soon as it exists.
 */
export function mobileSessionData(input: MobileSessionInput): MobileSessionData {
  const number = typeof input.mobileNumber === "string" ? input.mobileNumber.replace(NUMBER_PUNCTUATION, "") : ""
  if (!number) throw new NexiInputError("consumer_id", "give the shopper's mobile number")
  if (!MOBILE_NUMBER.test(number)) {
    throw new NexiInputError("consumer_id", "must be a mobile number of 6 to 15 digits, optionally starting with +")
  }
  return { consumer_id: number, ...languageData(input) }
}

/**
 * The logged-in customer's saved cards (the plugin's docs/saved-cards.md). These routes need
 * the customer: Medusa's session cookie, or the bearer token a server action passes in
 * `headers` (the starter's `await getAuthHeaders()`).
 */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"
import { type LanguageChoice, languageData, NexiInputError } from "./session-data.js"
import { isWebAddress } from "./web-address.js"

export interface SavedCard {
  /** What a card session's data takes as payment_method_id. */
  id: string
  /** The card's circuit as the gateway names it, e.g. "VISA", "MC". */
  circuit: string | null
  /** e.g. "453997******4549": only the last digits are real. */
  masked_pan: string | null
  /** Always null today: the gateway's records do not give a card's expiry. */
  expiry: string | null
  /** Whether the customer allowed the shop to charge the card without them (saved with allowMerchantCharges). */
  allows_merchant_charges: boolean
  created_at: string
  /** The card provider the card belongs to (pp_nexi_<entry>). */
  provider_id: string
}

/** The customer's confirmed cards, newest first. */
export async function listSavedCards(client: NexiStoreClient, options?: RequestOptions): Promise<SavedCard[]> {
  const { saved_cards } = await client.fetch<{ saved_cards: SavedCard[] }>(
    "/store/nexi/saved-cards",
    forwarded(options),
  )
  return saved_cards
}

/** Deletes one of the customer's cards; it is never offered or used again. Another customer's card is a 404. */
export async function deleteSavedCard(client: NexiStoreClient, id: string, options?: RequestOptions): Promise<void> {
  await client.fetch<{ id: string; deleted: true }>(`/store/nexi/saved-cards/${encodeURIComponent(id)}`, {
    method: "DELETE",
    ...forwarded(options),
  })
}

export interface SaveCardInput extends LanguageChoice {
  /** The currency the gateway verifies the card in (nothing is charged), e.g. "eur". */
  currencyCode: string
  /** The storefront page the shopper comes back to; same origin as the plugin's resultUrl (its origin by default). */
  returnUrl?: string
  /** The card provider (pp_nexi_<entry>) when the store has several Nexi entries. */
  providerId?: string
  /** The customer's consent to the shop charging the card later (ask with an unticked checkbox). */
  allowMerchantCharges?: boolean
}

export interface SaveCardStarted {
  /** Listed by listSavedCards once the gateway confirms it. */
  saved_card: { id: string; state: "pending"; provider_id: string }
  /** Where to send the browser to enter the card. */
  hosted_page: string
}

const CURRENCY_CODE = /^[a-zA-Z]{3}$/

/** Saves a card without paying (the account page's "Add a card"): the shopper enters it on a hosted page. */
export async function startSavingCard(
  client: NexiStoreClient,
  input: SaveCardInput,
  options?: RequestOptions,
): Promise<SaveCardStarted> {
  if (!CURRENCY_CODE.test(input.currencyCode))
    throw new NexiInputError("currency_code", "must be an ISO 4217 code such as eur")
  if (input.returnUrl !== undefined && !isWebAddress(input.returnUrl))
    throw new NexiInputError("return_url", "must be an absolute URL of the storefront")
  if (input.allowMerchantCharges !== undefined && typeof input.allowMerchantCharges !== "boolean")
    throw new NexiInputError("allow_merchant_charges", "must be true or false")
  return client.fetch<SaveCardStarted>("/store/nexi/saved-cards", {
    method: "POST",
    body: {
      currency_code: input.currencyCode,
      ...(input.returnUrl !== undefined ? { return_url: input.returnUrl } : {}),
      ...(input.providerId !== undefined ? { provider_id: input.providerId } : {}),
      ...languageData(input),
      ...(input.allowMerchantCharges ? { allow_merchant_charges: true } : {}),
    },
    ...forwarded(options),
  })
}

/**
 * The logged-in customer's saved cards (the plugin's docs/saved-cards.md). These routes need
 * the customer: Medusa's session cookie, or the bearer token a server action passes in
 * `headers` (the starter's `await getAuthHeaders()`).
 */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"

export interface SavedCard {
  /** What a card session's data takes as payment_method_id. */
  id: string
  /** The card's circuit as the gateway names it, e.g. "VISA", "MC". */
  circuit: string | null
  /** e.g. "453997******4549": only the last digits are real. */
  masked_pan: string | null
  /** Always null today: the gateway's records do not give a card's expiry. */
  expiry: string | null
  created_at: string
  /** The card provider the card belongs to (pp_nexi_<entry>). */
  provider_id: string
}

/** The customer's confirmed cards, newest first. */
export async function listSavedCards(client: NexiStoreClient, options?: RequestOptions): Promise<SavedCard[]> {
  const { saved_cards } = await client.fetch<{ saved_cards: SavedCard[] }>("/store/nexi/saved-cards", forwarded(options))
  return saved_cards
}

/** Deletes one of the customer's cards; it is never offered or used again. Another customer's card is a 404. */
export async function deleteSavedCard(client: NexiStoreClient, id: string, options?: RequestOptions): Promise<void> {
  await client.fetch<{ id: string; deleted: true }>(`/store/nexi/saved-cards/${encodeURIComponent(id)}`, { method: "DELETE", ...forwarded(options) })
}

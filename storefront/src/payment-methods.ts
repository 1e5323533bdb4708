/** The Nexi payment methods a region enables, with what a checkout page shows of each. */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"

export interface NexiPaymentMethod {
  provider_id: string
  /** card: the shopper pays on the hosted page; mobile: they approve in their payment app. */
  kind: "card" | "mobile"
  name: string
  /** An https URL or a data: URL (the plugin's neutral icons); usable as an <img> src either way. */
  logo_url: string
  /**
   * A card method's wallets the store offers (its `wallets` option): each is its own way to pay,
   * a card session with `cardSessionData({ wallet })`, whose page shows only that wallet's button.
   */
  wallets?: Array<{ wallet: NexiWallet; name: string }>
}

/** The wallets the card provider can offer: Google Pay and Apple Pay. */
export type NexiWallet = "GOOGLEPAY" | "APPLEPAY"

export async function listPaymentMethods(
  client: NexiStoreClient,
  regionId: string,
  options?: RequestOptions,
): Promise<NexiPaymentMethod[]> {
  const { payment_methods } = await client.fetch<{ payment_methods: NexiPaymentMethod[] }>(
    "/store/nexi/payment-methods",
    {
      query: { region_id: regionId },
      ...forwarded(options),
    },
  )
  return payment_methods
}

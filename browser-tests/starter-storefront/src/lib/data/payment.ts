"use server"
import { sdk } from "@lib/config"
import { getAuthHeaders, getCacheOptions } from "@lib/data/cookies"
import type { HttpTypes } from "@medusajs/types"

/** As the starters': the region's payment providers, by id. */
export async function listCartPaymentMethods(regionId: string): Promise<HttpTypes.StorePaymentProvider[]> {
  const { payment_providers } = await sdk.client.fetch<HttpTypes.StorePaymentProviderListResponse>(
    "/store/payment-providers",
    {
      query: { region_id: regionId },
      headers: await getAuthHeaders(),
      next: await getCacheOptions("payment_providers"),
      cache: "force-cache",
    },
  )
  return payment_providers.sort((a, b) => (a.id > b.id ? 1 : -1))
}

"use server"
import { sdk } from "@lib/config"
import type { HttpTypes } from "@medusajs/types"

export async function listProducts(regionId: string): Promise<HttpTypes.StoreProduct[]> {
  const { products } = await sdk.client.fetch<HttpTypes.StoreProductListResponse>("/store/products", {
    query: { region_id: regionId, fields: "*variants.calculated_price", limit: 50 },
    cache: "no-store",
  })
  return products
}

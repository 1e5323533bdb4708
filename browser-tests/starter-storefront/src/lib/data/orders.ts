"use server"
import { sdk } from "@lib/config"
import { getAuthHeaders } from "@lib/data/cookies"
import type { HttpTypes } from "@medusajs/types"

export async function retrieveOrder(id: string): Promise<HttpTypes.StoreOrder> {
  const { order } = await sdk.client.fetch<HttpTypes.StoreOrderResponse>(`/store/orders/${id}`, {
    query: { fields: "+total,*payment_collections.payments" },
    headers: await getAuthHeaders(),
    cache: "no-store",
  })
  return order
}

import type { HttpTypes } from "@medusajs/types"
import { sdk } from "./config"
import { getAuthHeaders, getCartId } from "./cookies"

const CART_FIELDS = "*items,*shipping_methods,*payment_collection,+total"

/**
 * The shopper's cart, read afresh on every request. Not cached: the store changes the cart on
 * its own (a declined or cancelled payment ends its session), and a cached cart would still
 * show the session as it was.
 */
export async function retrieveCart(): Promise<HttpTypes.StoreCart | null> {
  const id = await getCartId()
  if (!id) return null
  return sdk.client
    .fetch<HttpTypes.StoreCartResponse>(`/store/carts/${id}`, {
      query: { fields: CART_FIELDS },
      headers: await getAuthHeaders(),
      cache: "no-store",
    })
    .then(({ cart }) => cart)
    .catch(() => null)
}

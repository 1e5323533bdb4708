/** Cart reads and the one cart a shopper has open. */
import { remembered } from "./cart-store.js"

export async function readCart(api, cartId) {
  return (await api.get(`/store/carts/${encodeURIComponent(cartId)}`)).cart
}

/** The remembered cart if it is still open, else undefined. */
export async function openCart(api) {
  const cartId = remembered.cartId()
  if (!cartId) return undefined
  try {
    const cart = await readCart(api, cartId)
    if (!cart.completed_at) return cart
  } catch {
    // A cart of another store (data directory reset): start a new one.
  }
  remembered.forgetCart()
  return undefined
}

/** The open cart in this region, moving it there if the shopper changed region. */
export async function cartInRegion(api, regionId) {
  const cart = await openCart(api)
  if (!cart) {
    const created = (await api.post("/store/carts", { region_id: regionId })).cart
    remembered.setCartId(created.id)
    return created
  }
  if (cart.region_id === regionId) return cart
  return (await api.post(`/store/carts/${cart.id}`, { region_id: regionId })).cart
}

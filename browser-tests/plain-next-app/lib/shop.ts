"use server"
/**
 * The app's own shop, which docs/storefront.md does not write: an Italian shop's products, its
 * cart and the checkout's e-mail, address and delivery, over the same client and cookies as the
 * Nexi files (config.ts, cookies.ts, cart.ts).
 */
import type { HttpTypes } from "@medusajs/types"
import { redirect } from "next/navigation"
import { retrieveCart } from "./cart"
import { sdk } from "./config"
import { getAuthHeaders, setCartId } from "./cookies"

const COUNTRY = "it"

export async function shopRegion(): Promise<HttpTypes.StoreRegion> {
  const { regions } = await sdk.store.region.list({ fields: "*countries" }, await getAuthHeaders())
  const region = regions.find((candidate) => candidate.countries?.some((country) => country.iso_2 === COUNTRY))
  if (!region) throw new Error(`The store has no region for the country ${COUNTRY}`)
  return region
}

export async function listProducts(regionId: string): Promise<HttpTypes.StoreProduct[]> {
  const { products } = await sdk.store.product.list({ region_id: regionId, fields: "*variants.calculated_price" })
  return products
}

export async function addToCart(formData: FormData): Promise<void> {
  const headers = await getAuthHeaders()
  let cartId = (await retrieveCart())?.id
  if (!cartId) {
    cartId = (await sdk.store.cart.create({ region_id: (await shopRegion()).id }, {}, headers)).cart.id
    await setCartId(cartId)
  }
  await sdk.store.cart.createLineItem(
    cartId,
    { variant_id: String(formData.get("variantId")), quantity: 1 },
    {},
    headers,
  )
  redirect("/checkout")
}

/** The checkout's one form: e-mail and address, then the shop's one way of delivery (the first the store offers). */
export async function saveDetails(_state: string | null, formData: FormData): Promise<string | null> {
  const cart = await retrieveCart()
  if (!cart) return "Your cart is no longer there. Add the items again."
  const headers = await getAuthHeaders()
  const address = {
    first_name: String(formData.get("first_name")),
    last_name: String(formData.get("last_name")),
    address_1: String(formData.get("address_1")),
    postal_code: String(formData.get("postal_code")),
    city: String(formData.get("city")),
    country_code: COUNTRY,
  }
  try {
    await sdk.store.cart.update(
      cart.id,
      { email: String(formData.get("email")), shipping_address: address, billing_address: address },
      {},
      headers,
    )
    const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cart.id }, headers)
    if (!shipping_options.length) return "The shop delivers nowhere near this address."
    await sdk.store.cart.addShippingMethod(cart.id, { option_id: shipping_options[0].id }, {}, headers)
  } catch (error) {
    return (error as Error).message
  }
  redirect("/checkout?step=payment")
}

export async function retrieveOrder(id: string): Promise<HttpTypes.StoreOrder> {
  const { order } = await sdk.store.order.retrieve(id, { fields: "+total,*shipping_methods" }, await getAuthHeaders())
  return order
}

"use server"
import { sdk } from "@lib/config"
import { getAuthHeaders, getCacheOptions, getCacheTag, getCartId, setCartId } from "@lib/data/cookies"
import { getRegion } from "@lib/data/regions"
import type { HttpTypes } from "@medusajs/types"
import { revalidateTag } from "next/cache"
import { redirect } from "next/navigation"

const CART_FIELDS =
  "*items,*region,*items.product,*items.variant,*shipping_address,*billing_address,*shipping_methods,*payment_collection,*payment_collection.payment_sessions,+total,+subtotal,+tax_total,+shipping_total"

/**
 * Cached as the starters cache it (force-cache, under the shopper's "carts" tag): what the page
 * shows is the cart as the last write that revalidated the tag left it. A change the store
 * makes on its own (a payment session declined or cancelled) shows only once something
 * revalidates the tag (docs/storefront.md, step 3).
 */
export async function retrieveCart(cartId?: string): Promise<HttpTypes.StoreCart | null> {
  const id = cartId ?? (await getCartId())
  if (!id) return null
  return sdk.client
    .fetch<HttpTypes.StoreCartResponse>(`/store/carts/${id}`, {
      query: { fields: CART_FIELDS },
      headers: await getAuthHeaders(),
      next: await getCacheOptions("carts"),
      cache: "force-cache",
    })
    .then(({ cart }) => cart)
    .catch(() => null)
}

/** Every write to the cart ends here; a page that knows the store changed the cart on its own calls it too. */
export async function revalidateCart(): Promise<void> {
  revalidateTag(await getCacheTag("carts"))
}

export async function initiatePaymentSession(
  cart: HttpTypes.StoreCart,
  data: HttpTypes.StoreInitializePaymentSession,
): Promise<HttpTypes.StorePaymentCollectionResponse> {
  const answer = await sdk.store.payment.initiatePaymentSession(cart, data, {}, await getAuthHeaders())
  await revalidateCart()
  return answer
}

/** The shopper's cart in the region of the country, created (and its cookie set) when there is none. */
export async function getOrSetCart(countryCode: string): Promise<HttpTypes.StoreCart> {
  const region = await getRegion(countryCode)
  if (!region) throw new Error(`Region not found for country code: ${countryCode}`)
  const headers = await getAuthHeaders()
  let cart = await retrieveCart()
  if (!cart) {
    const created = await sdk.store.cart.create({ region_id: region.id }, {}, headers)
    cart = created.cart
    await setCartId(cart.id)
  } else if (cart.region_id !== region.id) {
    cart = (await sdk.store.cart.update(cart.id, { region_id: region.id }, {}, headers)).cart
  }
  await revalidateCart()
  return cart
}

export async function addToCart(formData: FormData): Promise<void> {
  const countryCode = String(formData.get("countryCode"))
  const cart = await getOrSetCart(countryCode)
  await sdk.store.cart.createLineItem(
    cart.id,
    { variant_id: String(formData.get("variantId")), quantity: 1 },
    {},
    await getAuthHeaders(),
  )
  await revalidateCart()
  redirect(`/${countryCode}/cart`)
}

/** The address step's form: the cart's e-mail and both addresses, then the delivery step. */
export async function setAddresses(_state: string | null, formData: FormData): Promise<string | null> {
  const cartId = await getCartId()
  if (!cartId) return "No existing cart found when setting addresses"
  const address = {
    first_name: String(formData.get("first_name")),
    last_name: String(formData.get("last_name")),
    address_1: String(formData.get("address_1")),
    postal_code: String(formData.get("postal_code")),
    city: String(formData.get("city")),
    country_code: String(formData.get("country_code")),
    phone: String(formData.get("phone") ?? ""),
  }
  try {
    await sdk.store.cart.update(
      cartId,
      { email: String(formData.get("email")), shipping_address: address, billing_address: address },
      {},
      await getAuthHeaders(),
    )
    await revalidateCart()
  } catch (error) {
    return (error as Error).message
  }
  redirect(`/${address.country_code}/checkout?step=delivery`)
}

export async function listCartShippingOptions(cartId: string): Promise<HttpTypes.StoreCartShippingOption[]> {
  const { shipping_options } = await sdk.client.fetch<{ shipping_options: HttpTypes.StoreCartShippingOption[] }>(
    "/store/shipping-options",
    { query: { cart_id: cartId }, headers: await getAuthHeaders(), cache: "no-store" },
  )
  return shipping_options
}

export async function setShippingMethod({ cartId, shippingMethodId }: { cartId: string; shippingMethodId: string }) {
  await sdk.store.cart.addShippingMethod(cartId, { option_id: shippingMethodId }, {}, await getAuthHeaders())
  await revalidateCart()
}

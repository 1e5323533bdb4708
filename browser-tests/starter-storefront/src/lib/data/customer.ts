"use server"
import { sdk } from "@lib/config"
import { getAuthHeaders, getCacheTag, getCartId, setAuthToken } from "@lib/data/cookies"
import type { HttpTypes } from "@medusajs/types"
import { revalidateTag } from "next/cache"
import { redirect } from "next/navigation"

export async function retrieveCustomer(): Promise<HttpTypes.StoreCustomer | null> {
  const headers = await getAuthHeaders()
  if (!("authorization" in headers)) return null
  return sdk.client
    .fetch<{ customer: HttpTypes.StoreCustomer }>("/store/customers/me", { headers, cache: "no-store" })
    .then(({ customer }) => customer)
    .catch(() => null)
}

/** The account page's login form: the token goes into the httpOnly cookie, and the cart becomes the customer's. */
export async function login(_state: string | null, formData: FormData): Promise<string | null> {
  try {
    const token = await sdk.auth.login("customer", "emailpass", {
      email: String(formData.get("email")),
      password: String(formData.get("password")),
    })
    if (typeof token !== "string") return "This login needs another step, which this storefront does not offer."
    await setAuthToken(token)
    revalidateTag(await getCacheTag("customers"))
  } catch (error) {
    return (error as Error).message
  }
  const cartId = await getCartId()
  if (cartId) await sdk.store.cart.transferCart(cartId, {}, await getAuthHeaders())
  redirect(`/${formData.get("countryCode")}/account`)
}

import { cookies } from "next/headers"

/**
 * The cart id and the customer's token, in httpOnly, SameSite=strict cookies. The browser
 * leaves them out of the navigation back from the gateway's hosted page: the result and cancel
 * addresses carry the cart id for that, and the pages do their work from the page itself.
 */
const MAX_AGE = 60 * 60 * 24 * 7

export async function getAuthHeaders(): Promise<{ authorization: string } | Record<string, never>> {
  const token = (await cookies()).get("_medusa_jwt")?.value
  return token ? { authorization: `Bearer ${token}` } : {}
}

export async function getCartId(): Promise<string | undefined> {
  return (await cookies()).get("_medusa_cart_id")?.value
}

export async function setCartId(cartId: string): Promise<void> {
  ;(await cookies()).set("_medusa_cart_id", cartId, {
    maxAge: MAX_AGE,
    httpOnly: true,
    sameSite: "strict",
    secure: process.env.NODE_ENV === "production",
  })
}

export async function removeCartId(): Promise<void> {
  ;(await cookies()).set("_medusa_cart_id", "", { maxAge: -1 })
}

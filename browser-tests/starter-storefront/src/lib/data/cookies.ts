import { cookies } from "next/headers"

/**
 * The starters' cookies: httpOnly and SameSite=strict, so the browser leaves them out of the
 * navigation that comes back from the gateway's hosted page (docs/storefront.md, "The cookies").
 */
const CART_COOKIE = "_medusa_cart_id"
const AUTH_COOKIE = "_medusa_jwt"
const CACHE_COOKIE = "_medusa_cache_id"
const MAX_AGE = 60 * 60 * 24 * 7

const strict = {
  maxAge: MAX_AGE,
  httpOnly: true,
  sameSite: "strict",
  secure: process.env.NODE_ENV === "production",
} as const

export async function getAuthHeaders(): Promise<{ authorization: string } | Record<string, never>> {
  const token = (await cookies()).get(AUTH_COOKIE)?.value
  return token ? { authorization: `Bearer ${token}` } : {}
}

export async function getCacheTag(tag: string): Promise<string> {
  const cacheId = (await cookies()).get(CACHE_COOKIE)?.value
  return cacheId ? `${tag}-${cacheId}` : tag
}

export async function setAuthToken(token: string): Promise<void> {
  ;(await cookies()).set(AUTH_COOKIE, token, strict)
}

export async function removeAuthToken(): Promise<void> {
  ;(await cookies()).set(AUTH_COOKIE, "", { maxAge: -1 })
}

export async function getCartId(): Promise<string | undefined> {
  return (await cookies()).get(CART_COOKIE)?.value
}

export async function setCartId(cartId: string): Promise<void> {
  ;(await cookies()).set(CART_COOKIE, cartId, strict)
}

export async function removeCartId(): Promise<void> {
  ;(await cookies()).set(CART_COOKIE, "", { maxAge: -1 })
}

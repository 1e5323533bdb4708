import { cookies } from "next/headers"

/**
 * The starters' cookies: httpOnly and SameSite=strict, so the browser leaves them out of the
 * navigation that comes back from the gateway's hosted page (docs/storefront.md, "The cookies").
 * The cache id (set by the middleware, as the starters' is) names this shopper's cached reads.
 */
const MAX_AGE = 60 * 60 * 24 * 7

export async function getAuthHeaders(): Promise<{ authorization: string } | Record<string, never>> {
  const token = (await cookies()).get("_medusa_jwt")?.value
  return token ? { authorization: `Bearer ${token}` } : {}
}

export async function getCacheTag(tag: string): Promise<string> {
  const cacheId = (await cookies()).get("_medusa_cache_id")?.value
  return cacheId ? `${tag}-${cacheId}` : ""
}

/** The starters' `next` option of a cached read: its tag, revalidated by every write to the cart. */
export async function getCacheOptions(tag: string): Promise<{ tags: string[] } | Record<string, never>> {
  const cacheTag = await getCacheTag(tag)
  return cacheTag ? { tags: [cacheTag] } : {}
}

export async function setAuthToken(token: string): Promise<void> {
  ;(await cookies()).set("_medusa_jwt", token, {
    maxAge: MAX_AGE,
    httpOnly: true,
    sameSite: "strict",
    secure: process.env.NODE_ENV === "production",
  })
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

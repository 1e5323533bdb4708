/**
 * Asks the running store whether what a previous run seeded is still there: the publishable
 * key opens the store API and finds the demo's regions and products, and the admin and the
 * demo shopper sign in with the remembered passwords. Anything else (a database reset, a key
 * revoked in the admin, a store seeded before the demo had a shopper) and the demo seeds again.
 */

async function json(url, init) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) })
  return response.ok ? response.json() : undefined
}

/** Whether the actor ("user" or "customer") signs in with the credentials: Medusa answers a token. */
async function signsIn(backendUrl, actor, credentials) {
  const login = await json(`${backendUrl}/auth/${actor}/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  })
  return Boolean(login?.token)
}

/**
 * @param {{ backendUrl: string, store: import("./seed-store").SeededStore, adminCredentials: { email: string, password: string },
 *   shopperCredentials: { email: string, password: string } }} options
 */
async function seededStoreAnswers({ backendUrl, store, adminCredentials, shopperCredentials }) {
  const headers = { "x-publishable-api-key": store.publishableKey }
  const regions = await json(`${backendUrl}/store/regions?fields=id&limit=100`, { headers })
  const products = await json(`${backendUrl}/store/products?fields=id&limit=100`, { headers })
  const has = (list, wanted) => wanted.every((item) => (list ?? []).some((found) => found.id === item.id))
  return (
    has(regions?.regions, store.regions) &&
    has(products?.products, store.products) &&
    (await signsIn(backendUrl, "user", adminCredentials)) &&
    (await signsIn(backendUrl, "customer", shopperCredentials))
  )
}

module.exports = { seededStoreAnswers }

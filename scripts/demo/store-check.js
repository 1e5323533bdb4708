/**
 * Asks the running store whether what a previous run seeded is still there: the publishable
 * key opens the store API and finds the demo's regions and products, and the admin signs in
 * with the remembered password. Anything else (a database reset, a key revoked in the admin)
 * and the demo seeds again.
 */

async function json(url, init) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) })
  return response.ok ? response.json() : undefined
}

/**
 * @param {{ backendUrl: string, store: import("./seed-store").SeededStore, adminCredentials: { email: string, password: string } }} options
 */
async function seededStoreAnswers({ backendUrl, store, adminCredentials }) {
  const headers = { "x-publishable-api-key": store.publishableKey }
  const regions = await json(`${backendUrl}/store/regions?fields=id&limit=100`, { headers })
  const products = await json(`${backendUrl}/store/products?fields=id&limit=100`, { headers })
  const login = await json(`${backendUrl}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(adminCredentials),
  })
  const has = (list, wanted) => wanted.every((item) => (list ?? []).some((found) => found.id === item.id))
  return Boolean(has(regions?.regions, store.regions) && has(products?.products, store.products) && login?.token)
}

module.exports = { seededStoreAnswers }

import Medusa from "@medusajs/js-sdk"

/**
 * Read when the server starts, not at build time (the starters use NEXT_PUBLIC_ variables, which
 * `next build` inlines): one build of this storefront serves every test store.
 */
export const sdk = new Medusa({
  baseUrl: process.env.MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  publishableKey: process.env.MEDUSA_PUBLISHABLE_KEY,
})

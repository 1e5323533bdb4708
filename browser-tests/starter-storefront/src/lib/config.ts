import Medusa from "@medusajs/js-sdk"

/**
 * The starters' variables. `next build` writes a NEXT_PUBLIC_ variable set at build time into the
 * build; the browser tests build without them and set them when the server starts, so the
 * server reads them then and one build serves every test store.
 */
export const sdk = new Medusa({
  baseUrl: process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,
})

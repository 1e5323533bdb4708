import Medusa from "@medusajs/js-sdk"

/** The store's client, for the server's code only: the cookies it reads are httpOnly. */
export const sdk = new Medusa({
  baseUrl: process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,
})

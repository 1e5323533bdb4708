/**
 * The store's choice, read on the server when the page renders: a new card typed in the
 * gateway's card fields on the review step (XPay Build) instead of on the hosted page, and the
 * Subresource Integrity of the gateway's SDK script, which the store's operator reads from the
 * gateway (GET /build/integrity) and sets here (docs/storefront.md, "PCI DSS").
 */
export const NEXI_CARD_FIELDS = {
  enabled: process.env.NEXI_CARD_FIELDS === "true",
  sdkIntegrity: process.env.NEXI_SDK_INTEGRITY || undefined,
}

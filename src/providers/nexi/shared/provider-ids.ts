/**
 * The provider ids the Nexi store entry registers: pp_nexi_<id> for cards and
 * pp_nexi-apm-<scheme>_<id> for each mobile payment scheme. Routes and middlewares use this
 * one pattern to tell a Nexi session from another provider's.
 */
const NEXI_PROVIDER_ID = /^pp_nexi(-apm-[a-z0-9-]+)?_/

export function isNexiProviderId(providerId: unknown): providerId is string {
  return typeof providerId === "string" && NEXI_PROVIDER_ID.test(providerId)
}

/** pp_nexi-apm-psp-b_nexi -> nexi: the `id` of the store's provider entry in medusa-config. */
export function storeEntryIdOf(providerId: string): string {
  return providerId.slice(providerId.lastIndexOf("_") + 1)
}

/**
 * The provider ids a Nexi store entry registers: pp_nexi_<id> for cards and
 * pp_nexi-apm-<scheme>_<id> for each mobile payment scheme. Routes and middlewares use this
 * one pattern to tell a Nexi session from another provider's.
 */
const NEXI_PROVIDER_ID = /^pp_nexi(-apm-[a-z0-9-]+)?_/

/** The card provider's identifier (NexiCardProviderService.identifier). */
const CARD_IDENTIFIER = "nexi"

/** The entry id a provider assumes when it cannot find its own entry (unit tests build providers directly). */
export const DEFAULT_STORE_ENTRY_ID = "nexi"

export function isNexiProviderId(providerId: unknown): providerId is string {
  return typeof providerId === "string" && NEXI_PROVIDER_ID.test(providerId)
}

/**
 * pp_nexi_nexi -> nexi_nexi: the provider as Medusa's webhook route and payment module name it,
 * and as the ledger records it (ProviderEntry builds the same from its identifier and entry).
 */
export function providerKeyOf(providerId: string): string {
  return providerId.replace(/^pp_/, "")
}

/**
 * pp_nexi-apm-psp-b_nexi -> nexi: the `id` of the store's provider entry in medusa-config.
 * The identifiers hold no underscore, so the entry id is everything after the first one
 * (an entry id may hold underscores itself).
 */
export function storeEntryIdOf(providerId: string): string {
  const key = providerKeyOf(providerId)
  return key.slice(key.indexOf("_") + 1)
}

/** What Medusa's webhook route names the card provider of an entry: POST /hooks/payment/nexi_<id>. */
export function cardWebhookProviderOf(entryId: string): string {
  return `${CARD_IDENTIFIER}_${entryId}`
}

/** The card provider of any entry (nexi_<id>), as a payment.webhook_received event names it; not a mobile scheme's. */
export function isNexiCardWebhookProvider(provider: unknown): provider is string {
  return (
    typeof provider === "string" &&
    provider.startsWith(`${CARD_IDENTIFIER}_`) &&
    provider.length > CARD_IDENTIFIER.length + 1
  )
}

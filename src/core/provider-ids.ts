/**
 * The providers a Nexi store entry registers: pp_nexi_<id> for cards and
 * pp_nexi-apm-<scheme>_<id> for each mobile payment scheme, how their ids read, and what the
 * schemes are called. Routes and middlewares use this one pattern to tell a Nexi session from
 * another provider's.
 */
import { APM_METHODS, type ApmMethod } from "../apm/schemas"
import type { ApmOptions } from "./options"

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

// The mobile payment schemes as Medusa sees them: one payment provider per scheme, so each
// shows up on its own at checkout and a region can enable some and not others. The
// identifier gives the provider id `pp_<identifier>_<store entry id>` (pp_nexi-apm-psp-b_nexi).

/** PSP_A_E_COM -> nexi-apm-psp-a-e-com: Medusa ids are lower case, and `_` separates their parts. */
export function apmIdentifier(method: ApmMethod): string {
  return `nexi-apm-${method.toLowerCase().replaceAll("_", "-")}`
}

/**
 * The scheme of a provider id, key or identifier (pp_nexi-apm-psp-b_nexi, nexi-apm-psp-b), if it
 * is one. Identifiers hold no underscore, so the identifier ends at the first one: an entry id
 * may hold underscores itself (storeEntryIdOf).
 */
export function apmMethodOfProvider(providerId: string): ApmMethod | undefined {
  const key = providerKeyOf(providerId)
  const identifier = key.includes("_") ? key.slice(0, key.indexOf("_")) : key
  return APM_METHODS.find((method) => apmIdentifier(method) === identifier)
}

/**
 * docs/contract/apm.md gives the schemes neutral names that stand for real ones, so the defaults stay
 * neutral too; a store names them after the schemes it signed up for (options.apm.names).
 */
const DEFAULT_NAMES: Record<ApmMethod, string> = {
  PSP_A_E_COM: "Mobile payment A (e-commerce)",
  PSP_B: "Mobile payment B",
  PSP_C: "Mobile payment C",
  PSP_D: "Mobile payment D",
}

export function apmSchemeName(method: ApmMethod, options: ApmOptions | undefined): string {
  return options?.names?.[method] ?? DEFAULT_NAMES[method]
}

/**
 * How staff read a provider in the admin: "Nexi card", or the scheme's default name for a mobile
 * provider; the entry id follows when it is not the default one ("Nexi card (eu)"), so two entries
 * stay apart. Medusa's raw id (pp_nexi_nexi) means nothing to staff.
 */
export function nexiProviderName(providerId: string): string {
  const method = apmMethodOfProvider(providerId)
  const name = method ? apmSchemeName(method, undefined) : "Nexi card"
  const entry = storeEntryIdOf(providerId)
  return entry === DEFAULT_STORE_ENTRY_ID ? name : `${name} (${entry})`
}

/**
 * The one scheme whose requests carry `additionalProperties` lang and country (docs/contract/apm.md:
 * "for one provider they carry lang and country"). The e-commerce scheme is the one that
 * shows the shopper a web page, so it is the one that needs their language.
 */
export const SCHEME_WITH_LOCALE_PROPERTIES: ApmMethod = "PSP_A_E_COM"

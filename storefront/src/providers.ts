/**
 * Telling Nexi providers apart by id. A store's Nexi entry (its `id` in medusa-config, often
 * "nexi") registers `pp_nexi_<entry>` for cards on the hosted page and
 * `pp_nexi-apm-<scheme>_<entry>` for each mobile payment scheme (pp_nexi-apm-psp-b_nexi).
 */

export type NexiProvider =
  | { kind: "card"; providerId: string; entryId: string }
  | {
      kind: "mobile"
      providerId: string
      entryId: string
      /** The scheme part of the id: psp-a-e-com, psp-b, psp-c, psp-d. */
      scheme: string
    }

// The identifiers hold no underscore, so the entry id is everything after the first one.
const NEXI_PROVIDER_ID = /^pp_nexi(?:-apm-([a-z0-9-]+))?_(.+)$/

/** What a provider id says, or undefined for another plugin's provider. */
export function parseNexiProviderId(providerId: unknown): NexiProvider | undefined {
  if (typeof providerId !== "string") return undefined
  const match = NEXI_PROVIDER_ID.exec(providerId)
  if (!match) return undefined
  const [, scheme, entryId] = match
  return scheme === undefined ? { kind: "card", providerId, entryId } : { kind: "mobile", providerId, entryId, scheme }
}

export function isNexiProvider(providerId: unknown): providerId is string {
  return parseNexiProviderId(providerId) !== undefined
}

/** Cards on the hosted payment page: the shopper is redirected to pay. */
export function isNexiCardProvider(providerId: unknown): providerId is string {
  return parseNexiProviderId(providerId)?.kind === "card"
}

/** A mobile payment scheme: the shopper approves in their app, the storefront waits. */
export function isNexiMobileProvider(providerId: unknown): providerId is string {
  return parseNexiProviderId(providerId)?.kind === "mobile"
}

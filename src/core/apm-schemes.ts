/**
 * The mobile payment schemes as Medusa sees them: one payment provider per scheme, so each
 * shows up on its own at checkout and a region can enable some and not others. The
 * identifier gives the provider id `pp_<identifier>_<store entry id>` (pp_nexi-apm-psp-b_nexi).
 */
import { APM_METHODS, type ApmMethod } from "../apm/schemas"
import type { ApmOptions } from "./options"
import { providerKeyOf } from "./provider-ids"

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
 * The one scheme whose requests carry `additionalProperties` lang and country (docs/contract/apm.md:
 * "for one provider they carry lang and country"). The e-commerce scheme is the one that
 * shows the shopper a web page, so it is the one that needs their language.
 */
export const SCHEME_WITH_LOCALE_PROPERTIES: ApmMethod = "PSP_A_E_COM"

/**
 * What each payment scheme accepts. The real service publishes no currency list, so this
 * table is the simulator's choice, modelled on Nordic mobile-payment schemes: one
 * euro-only e-commerce scheme, one that takes the four Nordic currencies, and two
 * domestic ones. Every currency here has two decimals, so the service's "hundredths of
 * the denomination" and ISO 4217 minor units coincide; a 0- or 3-decimal currency would
 * make that phrase ambiguous, which is one more reason no scheme takes one.
 */
import type { ApmMethod } from "../../apm/schemas"

export interface Scheme {
  /** naa2Ecr.schemeId in answers. */
  schemeId: string
  /** ISO 4217 codes, in the order shown in faults. */
  currencies: readonly string[]
}

export const SCHEMES: Readonly<Record<ApmMethod, Scheme>> = {
  PSP_A_E_COM: { schemeId: "PSPA", currencies: ["EUR"] },
  PSP_B: { schemeId: "PSPB", currencies: ["EUR", "SEK", "NOK", "DKK"] },
  PSP_C: { schemeId: "PSPC", currencies: ["SEK"] },
  PSP_D: { schemeId: "PSPD", currencies: ["DKK", "NOK"] },
}

export function schemeAccepts(method: ApmMethod, currencyCode: string): boolean {
  return SCHEMES[method].currencies.includes(currencyCode)
}

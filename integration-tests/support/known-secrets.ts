/**
 * The secrets an integration suite handles and must never print: the store's credentials as
 * medusa-config.ts gives them to the Nexi provider, the card numbers tests pay with, CVVs as
 * they are sent, and the notification security tokens the suite's simulator issued.
 */
import { TEST_CARD_NUMBERS } from "../../src/simulator/cards"
import { nexiProviderOptions } from "./store-config"

export interface Secret {
  /** What the finding calls it; the value itself is never printed. */
  kind: string
  value: string
}

export interface SecretPattern {
  kind: string
  pattern: RegExp
}

/** Luhn-valid numbers tests use besides the sandbox cards (generic test numbers). */
const OTHER_TEST_CARD_NUMBERS = ["4111111111111111", "378282246310005", "2223003122003222", "6759649826438453"]

/**
 * A CVV as a request carries it: a cvv/cvv2 key with 3 or 4 digits, also inside a JSON log
 * line where the quotes are escaped (redacted logs show [REDACTED] instead).
 */
export const CVV_AS_SENT: SecretPattern = { kind: "CVV", pattern: /cvv2?[\\"']*\s*[:=]\s*[\\"']*\d{3,4}(?!\d)/i }

export function configuredSecrets(): Secret[] {
  const options = nexiProviderOptions()
  const secrets: Secret[] = [{ kind: "gateway API key", value: String(options.apiKey) }]
  const apm = options.apm
  if (apm?.consumerSecret) {
    secrets.push({ kind: "APM consumer secret", value: String(apm.consumerSecret) })
    secrets.push({
      kind: "APM credentials (Authorization header)",
      value: Buffer.from(`${apm.consumerKey}:${apm.consumerSecret}`).toString("base64"),
    })
  }
  return secrets
}

/** Every test card number, as digits and in the grouped forms people and forms use. */
export function cardNumberSecrets(): Secret[] {
  return [...TEST_CARD_NUMBERS, ...OTHER_TEST_CARD_NUMBERS].flatMap((pan) => {
    const groups = pan.match(/.{1,4}/g)!
    return [pan, groups.join(" "), groups.join("-")].map((value) => ({ kind: "card number", value }))
  })
}

/**
 * The security tokens the suite's simulator issued (GET /__sim/security-tokens), or none when
 * no simulator is listening: a suite without one was issued no token.
 */
export async function issuedSecurityTokens(simulatorUrl = process.env.NEXI_SIMULATOR_URL): Promise<Secret[]> {
  if (!simulatorUrl) return []
  try {
    const answer = await fetch(`${simulatorUrl}/__sim/security-tokens`)
    if (!answer.ok) return []
    const { securityTokens } = (await answer.json()) as { securityTokens: string[] }
    return securityTokens.map((value) => ({ kind: "notification security token", value }))
  } catch {
    return []
  }
}

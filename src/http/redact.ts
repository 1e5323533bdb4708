/**
 * Makes request and answer data safe to log. Two nets, because either alone leaks:
 * - by key name, for secrets that look like anything (API keys, tokens, CVVs, expiry dates);
 * - by shape, for card numbers that turn up under a key nobody expected (a description,
 *   an error text echoing the request, a customField).
 */
import { passesLuhn } from "./luhn"

export const REDACTED = "[REDACTED]"

/** Compared in lower case, so `X-API-KEY`, `X-Api-Key` and `x-api-key` are all caught. */
const SECRET_KEYS = new Set([
  "x-api-key",
  "apikey",
  "api_key",
  "authorization",
  "consumersecret",
  "consumer_secret",
  "pan",
  "cvv",
  "cvv2",
  "expirydate",
  "securitytoken",
])

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase())
}

/**
 * 13 to 19 digits, optionally grouped by single spaces or dashes ("4999 3402 6197 7289"),
 * not glued to other digits. Candidates are confirmed with the Luhn check so order ids and
 * amounts that merely are long numbers stay readable.
 */
const PAN_CANDIDATE = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g


/** Replaces every card number inside `text` with its last four digits behind asterisks. */
export function maskPans(text: string): string {
  return text.replace(PAN_CANDIDATE, (candidate) => {
    const digits = candidate.replace(/[ -]/g, "")
    if (digits.length < 13 || digits.length > 19 || !passesLuhn(digits)) return candidate
    return `[PAN ****${digits.slice(-4)}]`
  })
}

/** A deep copy of `value` with secret keys replaced and card numbers masked; the input is left alone. */
export function redact(value: unknown): unknown {
  if (typeof value === "string") return maskPans(value)
  if (Array.isArray(value)) return value.map(redact)
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {}
    for (const [key, member] of Object.entries(value)) {
      copy[key] = isSecretKey(key) ? REDACTED : redact(member)
    }
    return copy
  }
  return value
}

/**
 * `redact` then JSON, for a log line. The JSON is masked once more so that a card number sent
 * as a JSON number is caught too; a body that is not JSON is masked as text.
 */
export function redactForLog(value: unknown): string {
  if (value === undefined) return ""
  let parsed = value
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value)
    } catch {
      return maskPans(value)
    }
  }
  return maskPans(JSON.stringify(redact(parsed)))
}

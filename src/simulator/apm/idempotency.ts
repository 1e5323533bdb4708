/**
 * initializeWithIdempotency takes its key in the Idempotency-Key header (docs/contract/apm.md does
 * not name one; this is the header the card gateway uses). Only answers that created a
 * transaction (201, 202) are remembered: a request refused with 400 created nothing, so
 * the merchant may correct it and send it again under the same key.
 */
import { createHash } from "node:crypto"
import type { TransactionType } from "../../apm/schemas"
import { type Fault, fault } from "./faults"

export const IDEMPOTENCY_HEADER = "idempotency-key"
const MAX_KEY_LENGTH = 255

export type KeyReading = { key: string } | { fault: Fault }

export function readIdempotencyKey(headers: Record<string, string | undefined>): KeyReading {
  const key = headers[IDEMPOTENCY_HEADER]?.trim()
  if (!key) return { fault: fault("The Idempotency-Key header is required", { header: "Idempotency-Key" }) }
  if (key.length > MAX_KEY_LENGTH) {
    return {
      fault: fault(`The Idempotency-Key header must be at most ${MAX_KEY_LENGTH} characters`, {
        header: "Idempotency-Key",
      }),
    }
  }
  return { key }
}

/** Same type and same JSON (whatever the key order) give the same fingerprint. */
export function requestFingerprint(type: TransactionType, body: unknown): string {
  return createHash("sha256")
    .update(canonicalJson([type, body]))
    .digest("hex")
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(",")}}`
  }
  return JSON.stringify(value)
}

/**
 * Gateways want a UUID as Idempotency-Key; Medusa gives us its own ids (capture, refund,
 * session). A name-based UUID (RFC 4122 version 5) of Medusa's id is the same on every
 * retry of one logical operation and different for every other one.
 */
import { createHash } from "node:crypto"

/** Our own namespace UUID, so keys never collide with another integration's v5 UUIDs. */
const NAMESPACE = "0b9f2a52-5d3b-4c1e-9a57-6e2f8c4d1a30"

export function idempotencyUuid(medusaKey: string): string {
  if (!medusaKey) throw new Error("idempotency key: Medusa passed no idempotency key for a write")
  const namespaceBytes = Buffer.from(NAMESPACE.replace(/-/g, ""), "hex")
  const hash = createHash("sha1").update(namespaceBytes).update(medusaKey, "utf8").digest()
  hash[6] = (hash[6] & 0x0f) | 0x50 // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80 // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * The ledger's key for the cancel of one capture. The gateway takes none on cancels, and whoever
 * asks (an order cancel, staff cancelling the capture) asks for the same one cancel: under one
 * key, the loser of two at once finds the winner's cancel as its own instead of as another
 * write's, and does not fall back to refunding a capture that is no longer there.
 */
export function cancelCaptureKey(captureOperationId: string): string {
  return idempotencyUuid(`${captureOperationId}:cancel`)
}

/** The ledger's key of a payment link's creation: one per attempt (its gateway order id). */
export function linkCreationKey(gatewayOrderId: string): string {
  return idempotencyUuid(`${gatewayOrderId}:paybylink`)
}

/** The ledger's key of a link's cancellation: whoever asks (staff, an order cancel, a new link) asks for the same one. */
export function linkCancellationKey(linkId: string): string {
  return idempotencyUuid(`${linkId}:paybylink-cancel`)
}

/** The ledger's key of a Build session's payment (finalize): the gateway takes none, and a session pays once. */
export function buildFinalizeKey(buildSessionId: string): string {
  return idempotencyUuid(`${buildSessionId}:finalize`)
}

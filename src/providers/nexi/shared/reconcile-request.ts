/**
 * The reconciliation job and the storefront's status route ask a provider to re-read a
 * session's payment from the gateway through the same door as a notification:
 * paymentModule.getWebhookActionAndData. Such a request carries a proof made with a secret
 * that exists only in this process's memory, so nothing arriving over HTTP can pose as one
 * (and even then it could only make the provider read the truth from the gateway).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"

const PROCESS_SECRET = randomBytes(32)
const KEY = "nexi_reconcile"

function proofFor(sessionId: string): string {
  return createHmac("sha256", PROCESS_SECRET).update(sessionId).digest("hex")
}

export function reconcileRequest(sessionId: string): ProviderWebhookPayload["payload"] {
  return { data: { [KEY]: { session_id: sessionId, proof: proofFor(sessionId) } }, rawData: "", headers: {} }
}

/** The session id of a genuine reconcile request, else undefined. */
export function readReconcileRequest(payload: ProviderWebhookPayload["payload"] | undefined): string | undefined {
  const request = (payload?.data as Record<string, unknown> | undefined)?.[KEY] as
    | { session_id?: unknown; proof?: unknown }
    | undefined
  if (typeof request?.session_id !== "string" || typeof request.proof !== "string") return undefined
  const expected = Buffer.from(proofFor(request.session_id), "hex")
  const given = Buffer.from(request.proof, "hex")
  return given.length === expected.length && timingSafeEqual(given, expected) ? request.session_id : undefined
}

/**
 * The reconciliation job and the storefront's status route ask a provider to re-read a
 * payment from the gateway through the same door as a notification:
 * paymentModule.getWebhookActionAndData. Such a request carries a proof made with a secret
 * that exists only in this process's memory, so nothing arriving over HTTP can pose as one
 * (and even then it could only make the provider read the truth from the gateway).
 *
 * A request names either a Medusa payment session (read its current payment) or a gateway
 * order / transaction from the ledger (settle its writes, and release its money if no live
 * session owns it).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"

const PROCESS_SECRET = randomBytes(32)
const KEY = "nexi_reconcile"

export type ReconcileSubject = { sessionId: string; gatewayRef?: undefined } | { gatewayRef: string; sessionId?: undefined }

function subjectText(subject: ReconcileSubject): string {
  return subject.sessionId !== undefined ? `session:${subject.sessionId}` : `gateway:${subject.gatewayRef}`
}

function proofFor(subject: ReconcileSubject): string {
  return createHmac("sha256", PROCESS_SECRET).update(subjectText(subject)).digest("hex")
}

/** A request to re-read the payment of a Medusa payment session. */
export function reconcileRequest(sessionId: string): ProviderWebhookPayload["payload"] {
  return requestFor({ sessionId })
}

/** A request to settle a gateway order or transaction the ledger knows. */
export function attemptReconcileRequest(gatewayRef: string): ProviderWebhookPayload["payload"] {
  return requestFor({ gatewayRef })
}

function requestFor(subject: ReconcileSubject): ProviderWebhookPayload["payload"] {
  const body = { session_id: subject.sessionId, gateway_ref: subject.gatewayRef, proof: proofFor(subject) }
  return { data: { [KEY]: body }, rawData: "", headers: {} }
}

/** What a genuine reconcile request names, else undefined. */
export function readReconcileRequest(payload: ProviderWebhookPayload["payload"] | undefined): ReconcileSubject | undefined {
  const request = (payload?.data as Record<string, unknown> | undefined)?.[KEY] as
    | { session_id?: unknown; gateway_ref?: unknown; proof?: unknown }
    | undefined
  // Exactly the proof's own form: Buffer.from(…, "hex") would stop at a stray character.
  if (!request || typeof request.proof !== "string" || !/^[0-9a-f]{64}$/.test(request.proof)) return undefined
  const subject: ReconcileSubject | undefined =
    typeof request.session_id === "string"
      ? { sessionId: request.session_id }
      : typeof request.gateway_ref === "string"
        ? { gatewayRef: request.gateway_ref }
        : undefined
  if (!subject) return undefined
  const expected = Buffer.from(proofFor(subject), "hex")
  const given = Buffer.from(request.proof, "hex")
  return given.length === expected.length && timingSafeEqual(given, expected) ? subject : undefined
}

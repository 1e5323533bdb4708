/**
 * A Build session (XPay Build) as the gateway keeps it: a hosted order whose card fields are the
 * gateway's iframes in the merchant's page. Its state is derived, never stored:
 *
 *   CARD_DATA_COLLECTION            the fields wait for the shopper (or a card they refused)
 *   READY_FOR_PAYMENT               the fields confirmed a card; the merchant's server may finalize
 *   REDIRECTED_TO_EXTERNAL_DOMAIN   the shopper must go to `url`: a 3-D Secure challenge, or a wallet's page
 *   PAYMENT_COMPLETE                the order has its outcome (paid, declined, failed or cancelled)
 *
 * A session that has not reached its outcome expires BUILD_SESSION_TTL_MS after it was opened
 * (the simulator's clock): the fields answer HF0003 and finalize is refused.
 */
import type { BuildField, BuildState } from "../../gateway/schemas"
import { hostedPageUrl } from "../gateway/order-requests"
import type { OperationRecord, StoredOrder } from "../gateway/store"

/** The real gateway's lifetime of a session is not public; a checkout page rarely stays open longer. */
export const BUILD_SESSION_TTL_MS = 15 * 60_000

/** The fields of a card session, in the order a form shows them (as the production front ends render them). */
export const CARD_FIELD_IDS = ["CARD_NUMBER", "EXPIRATION_DATE", "SECURITY_CODE", "CARDHOLDER_NAME"] as const
export type CardFieldId = (typeof CARD_FIELD_IDS)[number]

export function fieldsOf(publicUrl: string, sessionId: string): BuildField[] {
  return CARD_FIELD_IDS.map((id) => ({
    type: "TEXT",
    class: "CARD_FIELD",
    id,
    src: `${publicUrl}/field.html?id=${id}&sid=${encodeURIComponent(sessionId)}`,
  }))
}

/** Why a Build session takes nothing more (it expired before its outcome), or undefined. */
export function buildRefusal(order: StoredOrder, now: Date): string | undefined {
  const build = order.hosted?.build
  if (!build || order.hosted!.state !== "open" || now.getTime() <= Date.parse(build.expiresAt)) return undefined
  return `Build session ${build.sessionId} expired at ${build.expiresAt}; start again from POST /orders/build`
}

export function buildStateOf(order: StoredOrder): BuildState {
  const hosted = order.hosted!
  if (hosted.state === "closed") return "PAYMENT_COMPLETE"
  // A wallet's session sends the shopper to the wallet's page from the start.
  if (hosted.state === "challenge" || (hosted.paymentSession.paymentService ?? "CARDS") !== "CARDS")
    return "REDIRECTED_TO_EXTERNAL_DOMAIN"
  return hosted.build?.confirmed ? "READY_FOR_PAYMENT" : "CARD_DATA_COLLECTION"
}

export interface BuildStateView {
  state: BuildState
  url?: string
  operation?: OperationRecord
  fieldSet?: { sessionId: string; fields: BuildField[] }
}

/** The state with what it carries: the fields to collect, where to send the shopper, or the outcome. */
export function buildStateView(publicUrl: string, order: StoredOrder, lastOperation?: OperationRecord): BuildStateView {
  const state = buildStateOf(order)
  const hosted = order.hosted!
  switch (state) {
    case "CARD_DATA_COLLECTION":
      return {
        state,
        fieldSet: { sessionId: hosted.build!.sessionId, fields: fieldsOf(publicUrl, hosted.build!.sessionId) },
      }
    case "REDIRECTED_TO_EXTERNAL_DOMAIN":
      return { state, url: hostedPageUrl(publicUrl, order, hosted.state === "challenge" ? "challenge" : undefined) }
    case "PAYMENT_COMPLETE":
      return { state, ...(lastOperation ? { operation: lastOperation } : {}) }
    default:
      return { state }
  }
}

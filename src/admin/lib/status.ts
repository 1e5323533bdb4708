/**
 * Labels and badge colours for the gateway's codes. The card gateway's operation results
 * (docs/contract/gateway.md, "Operations and results") and the mobile service's transaction states
 * (docs/contract/apm.md, "Transaction states") are listed one by one, so a new code the gateway
 * starts sending shows up grey with its own name instead of passing for a success.
 */

export type BadgeColor = "green" | "red" | "blue" | "orange" | "grey" | "purple"

export interface StatusBadgeView {
  label: string
  color: BadgeColor
}

const OPERATION_RESULT_COLORS: Record<string, BadgeColor> = {
  AUTHORIZED: "green",
  EXECUTED: "green",
  THREEDS_VALIDATED: "blue",
  PENDING: "orange",
  DECLINED: "red",
  DENIED_BY_RISK: "red",
  THREEDS_FAILED: "red",
  FAILED: "red",
  CANCELED: "grey",
  VOIDED: "grey",
  REFUNDED: "purple",
}

const MOBILE_STATE_COLORS: Record<string, BadgeColor> = {
  AUTHORIZED: "green",
  FINALIZED: "green",
  REPORTED: "green",
  INITIALIZED: "orange",
  PENDING: "orange",
  RESERVED: "orange",
  REJECTED: "red",
  FAILED: "red",
  TIMEDOUT: "red",
  STALE: "red",
  CANCELLED: "grey",
}

/** DENIED_BY_RISK -> "Denied by risk"; THREEDS_* read as "3DS ..." as staff know them. */
export function humanizeCode(code: string | null | undefined): string {
  if (!code) return "Unknown"
  const words = code
    .replace(/^THREEDS_/, "3DS_")
    .toLowerCase()
    .split(/[_\s]+/)
    .filter(Boolean)
  const sentence = words.join(" ").replace(/^3ds/, "3DS")
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}

export function operationResultBadge(result: string | null | undefined): StatusBadgeView {
  return { label: humanizeCode(result), color: OPERATION_RESULT_COLORS[result ?? ""] ?? "grey" }
}

export function mobileStateBadge(state: string | null | undefined): StatusBadgeView {
  return { label: humanizeCode(state), color: MOBILE_STATE_COLORS[state ?? ""] ?? "grey" }
}

/**
 * additionalData.threeDS as the gateway reports it (the simulator sends FRICTIONLESS, CHALLENGE
 * or FAILED; the real gateway's full list is not published), or why there is none.
 */
export function threeDSLabel(outcome: string | null | undefined): string {
  return outcome ? humanizeCode(outcome) : "Not reported"
}

/** GET /payment_methods method types: CARD and APM are the ones the gateway sends. */
const METHOD_TYPE_LABELS: Record<string, string> = { CARD: "Card", APM: "Alternative payment" }

export function methodTypeLabel(methodType: string | null | undefined): string {
  return METHOD_TYPE_LABELS[methodType ?? ""] ?? humanizeCode(methodType)
}

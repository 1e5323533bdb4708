/**
 * The card gateway's error codes. Codes seen in the real gateway (docs/contract/gateway.md) are used
 * for the cases they describe; CONTRACT_CODES and SIM_CODES (http-helpers.ts) cover the rest.
 */
import type { z } from "zod"
import { describeIssue, type ErrorRecord, errorAnswer, errorsAnswer, SIM_CODES } from "../http-helpers"
import type { SimResponse } from "../http-types"

export const GATEWAY_CODES = {
  invalidMerchantUrl: "GW0001",
  cancelOnlySameDay: "PS0002",
  sessionAmountAboveOrder: "PS0007",
  captureAfterVoid: "PS0022",
  captureAfterCapture: "PS0023",
  captureAfterRefund: "PS0024",
  idempotencyKey: "PS0025",
  alreadyRefunded: "PS0027",
  alreadyVoided: "PS0028",
  refundAboveCaptured: "PS0029",
  nonNumericAmount: "PS0036",
} as const

/** The simulator's own codes for card-on-file refusals (docs/simulator.md): the real ones are not public. */
export const CONTRACT_CODES = {
  contractIdUsed: "SIM1001",
  contractNotFound: "SIM1002",
  merchantInitiated: "SIM1003",
  verifyWithSavedCard: "SIM1004",
  cardholderInitiatedContract: "SIM1005",
  contractDeactivated: "SIM1006",
  contractExpired: "SIM1007",
} as const

/** 400 with one error record per zod issue; amount fields get the gateway's PS0036. */
export function validationAnswer(error: z.ZodError, pathPrefix: readonly string[] = []): SimResponse {
  const errors: ErrorRecord[] = error.issues.map((issue) => ({
    code: issue.path.at(-1) === "amount" ? GATEWAY_CODES.nonNumericAmount : SIM_CODES.invalidRequest,
    description: describeIssue(issue, pathPrefix),
  }))
  return errorsAnswer(400, errors)
}

export function rejected(code: string, description: string): SimResponse {
  return errorAnswer(400, code, description)
}

export function invalidRequest(description: string): SimResponse {
  return errorAnswer(400, SIM_CODES.invalidRequest, description)
}

export function notAllowed(description: string): SimResponse {
  return errorAnswer(400, SIM_CODES.notAllowed, description)
}

export function notFound(description: string): SimResponse {
  return errorAnswer(404, SIM_CODES.notFound, description)
}

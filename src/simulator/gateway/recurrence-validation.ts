/**
 * Checks of paymentSession.recurrence on POST /orders/hpp (docs/simulator.md, "Saved cards"):
 * the members each action needs, and the contract it creates or uses. The zod schema has
 * already checked the enums and that contractFrequency is digits.
 */
import type { Order, PaymentSession, Recurrence } from "../../gateway/schemas"
import { type ErrorRecord, SIM_CODES } from "../http-helpers"
import { customerContract } from "./contracts"
import { CONTRACT_CODES } from "./errors"
import type { GatewayStore } from "./store"

const FIELD = "paymentSession.recurrence"
const PRINTABLE_ID = /^[\x20-\x7e]{1,255}$/
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

interface RecurrenceRequest {
  store: GatewayStore
  merchantId: string
  order: Order
  session: PaymentSession
  now: Date
}

export function recurrenceProblems(request: RecurrenceRequest): ErrorRecord[] {
  const recurrence = request.session.recurrence
  switch (recurrence?.action) {
    case undefined:
    case "NO_RECURRING":
      return []
    case "CONTRACT_CREATION":
      return creationProblems(request, recurrence)
    case "SUBSEQUENT_PAYMENT":
      return subsequentPaymentProblems(request, recurrence)
    case "CARD_SUBSTITUTION":
      return existingContractProblems(request, recurrence)
  }
}

function creationProblems(request: RecurrenceRequest, recurrence: Recurrence): ErrorRecord[] {
  const { contractId, contractType } = recurrence
  const problems = [...ownerProblems(request, recurrence), ...scheduleProblems(recurrence, request.now)]
  if (contractType === undefined)
    problems.push(required("contractType", recurrence, "MIT_UNSCHEDULED, MIT_SCHEDULED or CIT"))
  if (
    contractId !== undefined &&
    PRINTABLE_ID.test(contractId) &&
    request.store.findContract(request.merchantId, contractId)
  ) {
    problems.push({
      code: CONTRACT_CODES.contractIdUsed,
      description: `${FIELD}.contractId: "${contractId}" is already used by a contract of this merchant; use a new one for every contract`,
    })
  }
  return problems
}

/** A one-click payment: the shopper pays with the saved card on the hosted page (CIT only). */
function subsequentPaymentProblems(request: RecurrenceRequest, recurrence: Recurrence): ErrorRecord[] {
  const problems: ErrorRecord[] = []
  if (request.session.actionType === "VERIFY") {
    problems.push({
      code: CONTRACT_CODES.verifyWithSavedCard,
      description: `paymentSession.actionType: VERIFY cannot be used with ${FIELD}.action SUBSEQUENT_PAYMENT: a saved card was verified when it was saved (use PAY or PREAUTH)`,
    })
  }
  const { contractType } = recurrence
  if (contractType === undefined) problems.push(required("contractType", recurrence, "CIT"))
  if (contractType === "MIT_SCHEDULED" || contractType === "MIT_UNSCHEDULED") {
    problems.push({
      code: CONTRACT_CODES.merchantInitiated,
      description: `${FIELD}.contractType: ${contractType} payments are merchant-initiated and go through POST /orders/mit; a hosted page takes CIT`,
    })
  }
  return [...problems, ...existingContractProblems(request, recurrence)]
}

/** SUBSEQUENT_PAYMENT and CARD_SUBSTITUTION use a contract of the order's customer. */
function existingContractProblems(request: RecurrenceRequest, recurrence: Recurrence): ErrorRecord[] {
  const problems = ownerProblems(request, recurrence)
  const { contractId } = recurrence
  if (problems.length > 0 || contractId === undefined) return problems
  const contract = customerContract(request.store, request.merchantId, contractId, request.order.customerId)
  if (contract) return []
  // The same answer whether the id is unknown or another customer's: a shopper who learns
  // someone else's contractId must not be able to tell that it exists.
  return [
    {
      code: CONTRACT_CODES.contractNotFound,
      description: `${FIELD}.contractId: no active contract "${contractId}" for this customer`,
    },
  ]
}

/** Every contract action names its contract and the customer it belongs to. */
function ownerProblems({ order }: RecurrenceRequest, recurrence: Recurrence): ErrorRecord[] {
  const problems: ErrorRecord[] = []
  const { contractId } = recurrence
  if (contractId === undefined) problems.push(required("contractId", recurrence, "1 to 255 printable characters"))
  else if (!PRINTABLE_ID.test(contractId))
    problems.push(invalid(`${FIELD}.contractId: must be 1 to 255 printable characters`))
  if (!order.customerId) {
    problems.push(
      invalid(
        `order.customerId: is required with ${FIELD}.action ${recurrence.action}: a contract belongs to one customer`,
      ),
    )
  }
  return problems
}

/** MIT_SCHEDULED contracts say until when and how often the merchant will charge. */
function scheduleProblems(recurrence: Recurrence, now: Date): ErrorRecord[] {
  if (recurrence.contractType !== "MIT_SCHEDULED") return []
  const problems: ErrorRecord[] = []
  const { contractExpiryDate, contractFrequency } = recurrence
  if (contractExpiryDate === undefined) {
    problems.push(
      invalid(`${FIELD}.contractExpiryDate: is required with contractType MIT_SCHEDULED (an ISO 8601 date-time)`),
    )
  } else if (!ISO_DATE_TIME.test(contractExpiryDate) || Number.isNaN(Date.parse(contractExpiryDate))) {
    problems.push(invalid(`${FIELD}.contractExpiryDate: "${contractExpiryDate}" is not an ISO 8601 date-time`))
  } else if (Date.parse(contractExpiryDate) <= now.getTime()) {
    problems.push(invalid(`${FIELD}.contractExpiryDate: ${contractExpiryDate} has passed`))
  }
  if (contractFrequency === undefined) {
    problems.push(invalid(`${FIELD}.contractFrequency: is required with contractType MIT_SCHEDULED (a number of days)`))
  } else if (BigInt(contractFrequency) === 0n) {
    problems.push(invalid(`${FIELD}.contractFrequency: must be at least 1 day`))
  }
  return problems
}

function required(field: "contractId" | "contractType", recurrence: Recurrence, expected: string): ErrorRecord {
  return invalid(`${FIELD}.${field}: is required with action ${recurrence.action} (${expected})`)
}

function invalid(description: string): ErrorRecord {
  return { code: SIM_CODES.invalidRequest, description }
}

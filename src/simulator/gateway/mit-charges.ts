/**
 * POST /orders/mit: the merchant charges a contract's saved card without the cardholder
 * (channel BACKOFFICE, no 3-D Secure, the result in the answer). Only a contract created as
 * MIT_UNSCHEDULED or MIT_SCHEDULED may be charged so: a CIT contract needs the cardholder on
 * the hosted page, as the real gateway says. The router replays an answer under its
 * Idempotency-Key and refuses the key for another request.
 */
import { MitRequestSchema, type Order } from "../../gateway/schemas"
import { type ErrorRecord, errorsAnswer, jsonAnswer } from "../http-helpers"
import { paymentStep, recordCardOperation, resultWithout3DS } from "./card-payments"
import type { GatewayCall, GatewayContext } from "./context"
import { savedCardExpiry } from "./contracts"
import { CONTRACT_CODES } from "./errors"
import { openOrder } from "./order-requests"
import { orderProblems, parseBody } from "./request-validation"
import type { StoredContract } from "./store"

export function chargeContract(context: GatewayContext, call: GatewayCall) {
  const parsed = parseBody(call.req, MitRequestSchema)
  if (!parsed.ok) return parsed.answer
  const { order, contractId, captureType } = parsed.value
  const now = context.clock.now()
  const contract = context.store.findContract(call.merchantId, contractId)
  const problems = [
    ...orderProblems(context.store, call.merchantId, order, "positive"),
    ...contractProblems(contract, contractId, order, now),
  ]
  if (!contract || problems.length > 0) return errorsAnswer(400, problems)
  const stored = openOrder(context, call, order)
  const step = paymentStep(captureType)
  // An expired card is declined by the issuer: a charge that happened, not a malformed request.
  const expired = savedCardExpiry(contract.card, now) !== undefined
  const operation = recordCardOperation(context, stored, {
    channel: "BACKOFFICE",
    operationType: step.operationType,
    operationResult: expired ? "DECLINED" : resultWithout3DS(contract.card.behaviour, step),
    amount: order.amount,
    card: contract.card,
  })
  return jsonAnswer(200, { operation: operation.record })
}

function contractProblems(
  contract: StoredContract | undefined,
  contractId: string,
  order: Order,
  now: Date,
): ErrorRecord[] {
  // order.customerId is optional here; when given it must be the contract's customer.
  if (!contract || (order.customerId !== undefined && order.customerId !== contract.customerId)) {
    const whose = order.customerId === undefined ? "of this merchant" : "for this customer"
    return [refusal(CONTRACT_CODES.contractNotFound, `contractId: no contract "${contractId}" ${whose}`)]
  }
  if (contract.state === "deactivated") {
    return [
      refusal(
        CONTRACT_CODES.contractDeactivated,
        `contractId: contract "${contractId}" was deactivated; it can no longer be charged`,
      ),
    ]
  }
  if (contract.contractType === "CIT") {
    return [
      refusal(
        CONTRACT_CODES.cardholderInitiatedContract,
        `contractId: contract "${contractId}" is CIT: the cardholder agreed only to pay with it themselves, on the hosted page (recurrence.action SUBSEQUENT_PAYMENT); the merchant cannot charge it alone`,
      ),
    ]
  }
  const expiry = contract.contractExpiryDate
  if (expiry !== undefined && Date.parse(expiry) <= now.getTime()) {
    return [
      refusal(
        CONTRACT_CODES.contractExpired,
        `contractId: contract "${contractId}" ended at ${expiry} (contractExpiryDate); it can no longer be charged`,
      ),
    ]
  }
  return []
}

function refusal(code: string, description: string): ErrorRecord {
  return { code, description }
}

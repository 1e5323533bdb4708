/**
 * One pure function that reads a gateway order (GET /orders/{orderId}) and says where the
 * payment stands, in Medusa's words. Every operation result is named here, so a new one
 * shows up as a type error rather than as a silently pending payment.
 */

import type { PaymentStatus } from "../../../core/payment-status"
import type { Operation, OperationResult, OrderDetails } from "../../../gateway/schemas"

export interface CardPaymentState {
  status: PaymentStatus
  /** Why the payment failed or was cancelled, in words a merchant and a shopper understand. */
  reason?: string
  /** The AUTHORIZATION (EXPLICIT) or CAPTURE (IMPLICIT) operation that paid the order. */
  paymentOperationId?: string
  /** The CAPTURE operation, once the payment is captured. */
  captureOperationId?: string
  authorizedMinor: string
  capturedMinor: string
  refundedMinor: string
  /** Refunds accepted but not settled: the money is already spoken for, so refunding "the rest" of a capture must leave it out. */
  pendingRefundMinor: string
  /** The card that paid, as the gateway shows it (circuit, masked number): what a saved card records. */
  paymentInstrument?: CardInstrument
  /** REFUND operations that were executed, for reconciling refunds made outside Medusa. */
  refunds: Array<{ operationId: string; amountMinor: string; result: OperationResult }>
}

export interface CardInstrument {
  circuit?: string
  maskedPan?: string
}

function instrumentOf(operation: Operation | undefined): CardInstrument | undefined {
  if (!operation || (!operation.paymentCircuit && !operation.paymentInstrumentInfo)) return undefined
  return { circuit: operation.paymentCircuit, maskedPan: operation.paymentInstrumentInfo }
}

/** What each operation result means for the payment attempt it belongs to. */
const RESULT_MEANING: Record<OperationResult, "success" | "pending" | "failure" | "cancel" | "neutral"> = {
  AUTHORIZED: "success",
  EXECUTED: "success",
  THREEDS_VALIDATED: "pending",
  PENDING: "pending",
  DECLINED: "failure",
  DENIED_BY_RISK: "failure",
  THREEDS_FAILED: "failure",
  FAILED: "failure",
  CANCELED: "cancel",
  VOIDED: "neutral",
  REFUNDED: "neutral",
}

const FAILURE_REASONS: Partial<Record<OperationResult, string>> = {
  DECLINED: "The card issuer declined the payment.",
  DENIED_BY_RISK: "The payment was refused by the gateway's risk checks.",
  THREEDS_FAILED: "3-D Secure authentication failed or was abandoned.",
  FAILED: "The payment failed for a technical reason at the gateway.",
  CANCELED: "The shopper cancelled the payment on the hosted page.",
}

function sumMinor(operations: Operation[]): string {
  return operations.reduce((total, operation) => total + BigInt(operation.operationAmount ?? "0"), 0n).toString()
}

function isPaymentOperation(operation: Operation): boolean {
  return operation.operationType === "AUTHORIZATION" || operation.operationType === "CAPTURE"
}

/**
 * The gateway records a reversal of the authorization as a VOID, or as the REFUND that was
 * posted on the uncaptured authorization with result VOIDED; either may leave
 * cancelledOperationId empty, so neither may depend on it.
 */
function isVoid(operation: Operation): boolean {
  if (operation.operationType === "VOID") {
    return operation.operationResult === "VOIDED" || operation.operationResult === "EXECUTED"
  }
  return operation.operationType === "REFUND" && operation.operationResult === "VOIDED"
}

/** Operations undone by an executed CANCEL (a rolled-back capture) or by a void that names them. */
function undoneOperationIds(operations: Operation[]): Set<string> {
  const undone = new Set<string>()
  for (const operation of operations) {
    const cancel =
      operation.operationType === "CANCEL" &&
      (operation.operationResult === "EXECUTED" || operation.operationResult === "VOIDED")
    if ((cancel || isVoid(operation)) && operation.cancelledOperationId) undone.add(operation.cancelledOperationId)
  }
  return undone
}

/** Math.max does not take bigints. */
function maxMinor(...amounts: bigint[]): bigint {
  let largest = 0n
  for (const amount of amounts) if (amount > largest) largest = amount
  return largest
}

export function readCardPaymentState(details: OrderDetails): CardPaymentState {
  const operations = details.operations ?? []
  const undone = undoneOperationIds(operations)
  const live = (operation: Operation) => !undone.has(operation.operationId ?? "")

  const captures = operations.filter(
    (operation) => operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED" && live(operation),
  )
  // A VOIDED authorization is the gateway updating the authorization in place after a void.
  const authorization = operations.find(
    (operation) =>
      operation.operationType === "AUTHORIZATION" &&
      (operation.operationResult === "AUTHORIZED" || operation.operationResult === "VOIDED"),
  )
  const voided =
    authorization?.operationResult === "VOIDED" ||
    (authorization !== undefined && !live(authorization)) ||
    operations.some(isVoid)
  // A REFUND that came back VOIDED reversed an authorization: no money went back to the card.
  const refunds = operations.filter(
    (operation) =>
      operation.operationType === "REFUND" && operation.operationResult !== "FAILED" && operation.operationResult !== "VOIDED",
  )
  const executedRefunds = refunds.filter((operation) => operation.operationResult === "REFUNDED" || operation.operationResult === "EXECUTED")
  const pendingRefunds = refunds.filter((operation) => operation.operationResult === "PENDING")

  const capturedMinor = sumMinor(captures)
  // The gateway reports 0 (or nothing) as authorized after an IMPLICIT capture; what was
  // captured was authorized, or callers would see less authorized than the session amount.
  const heldByAuthorization = authorization && !voided ? BigInt(authorization.operationAmount ?? "0") : 0n
  const authorizedMinor = maxMinor(
    BigInt(details.orderStatus.authorizedAmount ?? "0"),
    heldByAuthorization,
    BigInt(capturedMinor),
  ).toString()

  const amounts = {
    authorizedMinor,
    capturedMinor,
    refundedMinor: sumMinor(executedRefunds),
    pendingRefundMinor: sumMinor(pendingRefunds),
    refunds: refunds.map((operation) => ({
      operationId: operation.operationId ?? "",
      amountMinor: operation.operationAmount ?? "0",
      result: operation.operationResult ?? "PENDING",
    })),
  }

  const firstCapture = captures[0]
  if (firstCapture) {
    // With IMPLICIT capture the CAPTURE operation is also the payment operation.
    return {
      status: "captured",
      paymentOperationId: authorization?.operationId ?? firstCapture.operationId,
      captureOperationId: firstCapture.operationId,
      paymentInstrument: instrumentOf(authorization ?? firstCapture),
      ...amounts,
    }
  }
  if (voided) {
    return { status: "canceled", reason: "The authorization was voided.", paymentOperationId: authorization?.operationId, ...amounts }
  }
  if (authorization) {
    return { status: "authorized", paymentOperationId: authorization.operationId, paymentInstrument: instrumentOf(authorization), ...amounts }
  }

  // No money moved: the latest payment attempt tells whether it is still under way.
  const latest = oldestFirst(operations.filter(isPaymentOperation)).at(-1) ?? oldestFirst(operations).at(-1)
  const result = latest?.operationResult
  const meaning = result ? RESULT_MEANING[result] : "pending"
  if (result && (meaning === "failure" || meaning === "cancel")) {
    return {
      status: meaning === "cancel" ? "canceled" : "error",
      reason: FAILURE_REASONS[result] ?? `The payment ended with result ${result}.`,
      ...amounts,
    }
  }
  return { status: "pending", ...amounts }
}

/**
 * Oldest first. An operation without a readable time has no place in time, so it keeps its
 * place in the gateway's list and the timed ones are ordered around it: a comparator that
 * mixed times and list positions would not be transitive, and NaN would make it arbitrary.
 */
function oldestFirst(operations: readonly Operation[]): Operation[] {
  const timed = operations.flatMap((operation, index) => {
    const time = Date.parse(operation.operationTime ?? "")
    return Number.isFinite(time) ? [{ operation, index, time }] : []
  })
  const byTime = [...timed].sort((a, b) => a.time - b.time || a.index - b.index)
  const ordered = [...operations]
  timed.forEach((slot, rank) => {
    ordered[slot.index] = byTime[rank].operation
  })
  return ordered
}

/**
 * One pure function that reads a gateway order (GET /orders/{orderId}) and says where the
 * payment stands, in Medusa's words. Every operation result is named here, so a new one
 * shows up as a type error rather than as a silently pending payment.
 */
import type { Operation, OperationResult, OrderDetails } from "../../../gateway/schemas"

export type CardPaymentStatus = "pending" | "authorized" | "captured" | "error" | "canceled"

export interface CardPaymentState {
  status: CardPaymentStatus
  /** Why the payment failed or was cancelled, in words a merchant and a shopper understand. */
  reason?: string
  /** The AUTHORIZATION (EXPLICIT) or CAPTURE (IMPLICIT) operation that paid the order. */
  paymentOperationId?: string
  /** The CAPTURE operation, once the payment is captured. */
  captureOperationId?: string
  authorizedMinor: string
  capturedMinor: string
  refundedMinor: string
  /** REFUND operations that were executed, for reconciling refunds made outside Medusa. */
  refunds: Array<{ operationId: string; amountMinor: string; result: OperationResult }>
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

/** Operations undone by an executed CANCEL (a rolled-back capture) or VOID. */
function undoneOperationIds(operations: Operation[]): Set<string> {
  const undone = new Set<string>()
  for (const operation of operations) {
    const undoes = operation.operationType === "CANCEL" || operation.operationType === "VOID"
    const done = operation.operationResult === "EXECUTED" || operation.operationResult === "VOIDED"
    if (undoes && done && operation.cancelledOperationId) undone.add(operation.cancelledOperationId)
  }
  return undone
}

export function readCardPaymentState(details: OrderDetails): CardPaymentState {
  const operations = details.operations ?? []
  const undone = undoneOperationIds(operations)
  const live = (operation: Operation) => !undone.has(operation.operationId ?? "")

  const captures = operations.filter(
    (operation) => operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED" && live(operation),
  )
  const authorization = operations.find(
    (operation) => operation.operationType === "AUTHORIZATION" && operation.operationResult === "AUTHORIZED",
  )
  const refunds = operations.filter(
    (operation) => operation.operationType === "REFUND" && operation.operationResult !== "FAILED",
  )
  const executedRefunds = refunds.filter((operation) => operation.operationResult === "REFUNDED" || operation.operationResult === "EXECUTED")

  const amounts = {
    authorizedMinor: details.orderStatus.authorizedAmount ?? sumMinor(authorization ? [authorization] : []),
    capturedMinor: sumMinor(captures),
    refundedMinor: sumMinor(executedRefunds),
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
      ...amounts,
    }
  }
  if (authorization) {
    if (undone.has(authorization.operationId ?? "")) {
      return { status: "canceled", reason: "The authorization was voided.", paymentOperationId: authorization.operationId, ...amounts }
    }
    return { status: "authorized", paymentOperationId: authorization.operationId, ...amounts }
  }

  // No money moved: the latest payment attempt tells whether it is still under way.
  const latest = [...operations].filter(isPaymentOperation).sort(byTime).at(-1) ?? [...operations].sort(byTime).at(-1)
  const meaning = latest?.operationResult ? RESULT_MEANING[latest.operationResult] : "pending"
  if (meaning === "failure" || meaning === "cancel") {
    const result = latest!.operationResult!
    return {
      status: meaning === "cancel" ? "canceled" : "error",
      reason: FAILURE_REASONS[result] ?? `The payment ended with result ${result}.`,
      ...amounts,
    }
  }
  return { status: "pending", ...amounts }
}

function byTime(a: Operation, b: Operation): number {
  return Date.parse(a.operationTime ?? "") - Date.parse(b.operationTime ?? "")
}

/**
 * What the admin shows of a card payment, read from the gateway's own record of the order
 * (GET /orders/{orderId}): pure, so every rule below is unit-tested over realistic records.
 *
 * - authorized / captured: the order status's authorizedAmount and capturedAmount, as the
 *   gateway reports them (a cancelled capture is already out of capturedAmount).
 * - refunded: executed REFUND operations (REFUNDED, or EXECUTED) less those an executed
 *   CANCEL rolled back; a PENDING refund has not moved money yet.
 * - the card: circuit, masked number and 3-D Secure outcome of the operation that paid, or
 *   of the first operation that names a card when nothing was paid (a declined attempt).
 * - the timeline, oldest first; a CAPTURE is `cancellable` while it is executed and no
 *   executed CANCEL points at it (the gateway may still refuse: same day only, no refunds).
 */
import BigNumber from "bignumber.js"
import type { Operation, OrderDetails } from "../gateway/schemas"
import { minorToMajorString } from "../money/amount"
import type { NexiCardPaymentView, NexiMoney, NexiTimelineOperation } from "./contract"

export interface PaymentIdentity {
  payment_id: string
  provider_id: string
}

/** Operations that undo another one and say which (cancelledOperationId). */
const UNDOING_TYPES = new Set(["CANCEL", "VOID"])

/** Oldest first; operations without a readable time keep the gateway's order among the rest. */
export function oldestFirst(operations: readonly Operation[]): Operation[] {
  return operations
    .map((operation, index) => ({ operation, index, time: Date.parse(operation.operationTime ?? "") }))
    .sort((a, b) => (Number.isFinite(a.time) && Number.isFinite(b.time) && a.time !== b.time ? a.time - b.time : a.index - b.index))
    .map(({ operation }) => operation)
}

/** operation id -> the executed CANCEL that rolled it back. */
export function cancelledOperations(operations: readonly Operation[]): Map<string, string> {
  const cancelled = new Map<string, string>()
  for (const operation of operations) {
    if (operation.operationType === "CANCEL" && operation.operationResult === "EXECUTED" && operation.cancelledOperationId) {
      cancelled.set(operation.cancelledOperationId, operation.operationId ?? "")
    }
  }
  return cancelled
}

function isPayment(operation: Operation): boolean {
  return (
    (operation.operationType === "AUTHORIZATION" && operation.operationResult === "AUTHORIZED") ||
    (operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED")
  )
}

function isExecutedRefund(operation: Operation): boolean {
  return operation.operationType === "REFUND" && (operation.operationResult === "REFUNDED" || operation.operationResult === "EXECUTED")
}

function money(minor: string, currency: string): NexiMoney {
  return { amount: minorToMajorString(minor, currency), currency }
}

function timelineOperation(operation: Operation, orderCurrency: string, cancelled: Map<string, string>): NexiTimelineOperation {
  const id = operation.operationId ?? ""
  const currency = operation.operationCurrency ?? orderCurrency
  return {
    operation_id: id,
    type: operation.operationType ?? "UNKNOWN",
    result: operation.operationResult ?? "UNKNOWN",
    amount: operation.operationAmount === undefined ? null : money(operation.operationAmount, currency),
    time: operation.operationTime ?? null,
    channel: operation.channel ?? null,
    cancelled_operation_id: UNDOING_TYPES.has(operation.operationType ?? "") ? operation.cancelledOperationId || null : null,
    warnings: (operation.warnings ?? []).map(({ code, description }) => ({ code, description })),
    cancellable: operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED" && !cancelled.has(id),
  }
}

/** Sum of the executed refunds that were not rolled back, in minor units. */
export function refundedMinor(operations: readonly Operation[]): string {
  const cancelled = cancelledOperations(operations)
  return operations
    .filter((operation) => isExecutedRefund(operation) && !cancelled.has(operation.operationId ?? ""))
    .reduce((total, operation) => total.plus(operation.operationAmount ?? "0"), new BigNumber(0))
    .toFixed(0)
}

export function cardPaymentView(identity: PaymentIdentity, details: OrderDetails): NexiCardPaymentView {
  const { order, authorizedAmount, capturedAmount, lastOperationType } = details.orderStatus
  const currency = order.currency
  const operations = oldestFirst(details.operations ?? [])
  const cancelled = cancelledOperations(operations)
  const card = operations.find(isPayment) ?? operations.find((operation) => operation.paymentInstrumentInfo)
  const threeDS = card?.additionalData?.threeDS ?? operations.find((operation) => operation.additionalData?.threeDS)?.additionalData?.threeDS
  return {
    kind: "card",
    ...identity,
    gateway_order_id: order.orderId,
    circuit: card?.paymentCircuit ?? null,
    masked_card: card?.paymentInstrumentInfo ?? null,
    three_ds: threeDS ?? null,
    authorized: money(authorizedAmount ?? "0", currency),
    captured: money(capturedAmount ?? "0", currency),
    refunded: money(refundedMinor(operations), currency),
    last_operation_type: lastOperationType ?? null,
    operations: operations.map((operation) => timelineOperation(operation, currency, cancelled)),
  }
}

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
 * - what staff may do now, decided here from the provider's own reading of the order
 *   (order-state.ts) so the admin offers only what the gateway takes: `capturable` while the
 *   payment is authorized and no capture holds money (one capture per authorization: PS0023);
 *   `refundable` for what is captured and neither refunded nor being refunded (PS0027, PS0029);
 *   `cancellable` on the live capture while it has no refund (PS0027). The gateway still
 *   refuses a cancel on a later day (PS0002): its day boundary is not documented, so that one
 *   is left to the gateway and the dialog says so.
 * - the timeline, oldest first, each operation with a note on what it undid or what undid it.
 */
import BigNumber from "bignumber.js"
import type { Operation, OrderDetails } from "../gateway/schemas"
import { minorToMajorString } from "../money/amount"
import { type CardPaymentState, readCardPaymentState } from "../providers/nexi/card/order-state"
import type { NexiCardPaymentView, NexiMoney, NexiTimelineOperation } from "./contract"

export interface PaymentIdentity {
  payment_id: string
  provider_id: string
}

/** Operations that undo another one and say which (cancelledOperationId), with the words for both ends. */
const UNDO_WORDS: Record<string, { undoes: string; undoneBy: string }> = {
  CANCEL: { undoes: "Cancels", undoneBy: "Cancelled by" },
  VOID: { undoes: "Voids", undoneBy: "Voided by" },
}

/** An undo that failed undid nothing. */
const UNDO_DONE_RESULTS = new Set(["EXECUTED", "VOIDED"])

/** Oldest first; operations without a readable time keep the gateway's order among the rest. */
export function oldestFirst(operations: readonly Operation[]): Operation[] {
  return operations
    .map((operation, index) => ({ operation, index, time: Date.parse(operation.operationTime ?? "") }))
    .sort((a, b) => (Number.isFinite(a.time) && Number.isFinite(b.time) && a.time !== b.time ? a.time - b.time : a.index - b.index))
    .map(({ operation }) => operation)
}

/** operation id -> the CANCEL or VOID that rolled it back (executed, or VOIDED). */
function undoneOperations(operations: readonly Operation[]): Map<string, Operation> {
  const undone = new Map<string, Operation>()
  for (const operation of operations) {
    const target = operation.cancelledOperationId
    if (target && UNDO_WORDS[operation.operationType ?? ""] && UNDO_DONE_RESULTS.has(operation.operationResult ?? "")) {
      undone.set(target, operation)
    }
  }
  return undone
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

/** What this operation undid ("Cancels 123"), or what undid it ("Cancelled by 456"). */
function noteOf(operation: Operation, undone: ReadonlyMap<string, Operation>): string | null {
  const words = UNDO_WORDS[operation.operationType ?? ""]
  if (words && operation.cancelledOperationId) return `${words.undoes} ${operation.cancelledOperationId}`
  const undoer = undone.get(operation.operationId ?? "")
  return undoer ? `${UNDO_WORDS[undoer.operationType ?? ""].undoneBy} ${undoer.operationId ?? ""}` : null
}

/** The capture staff may cancel: the live one, while no refund was made or asked on it. */
function cancellableCaptureId(state: CardPaymentState): string | undefined {
  return state.status === "captured" && state.refunds.length === 0 ? state.captureOperationId : undefined
}

/** `minor` as money when above zero: a remainder of nothing offers nothing. */
function positive(minor: bigint, currency: string): NexiMoney | null {
  return minor > 0n ? money(minor.toString(), currency) : null
}

/** Capture is taken once per authorization; a PENDING capture may still take it. */
function capturable(state: CardPaymentState, operations: readonly Operation[], currency: string): NexiMoney | null {
  const captureUnderWay = operations.some((operation) => operation.operationType === "CAPTURE" && operation.operationResult === "PENDING")
  if (state.status !== "authorized" || captureUnderWay) return null
  return positive(BigInt(state.authorizedMinor) - BigInt(state.capturedMinor), currency)
}

/** The provider's own bound on a refund (card-provider.ts refundPayment): a pending refund is spoken for. */
function refundable(state: CardPaymentState, currency: string): NexiMoney | null {
  return positive(BigInt(state.capturedMinor) - BigInt(state.refundedMinor) - BigInt(state.pendingRefundMinor), currency)
}

function timelineOperation(
  operation: Operation,
  orderCurrency: string,
  undone: ReadonlyMap<string, Operation>,
  cancellableId: string | undefined,
): NexiTimelineOperation {
  const id = operation.operationId ?? ""
  const currency = operation.operationCurrency ?? orderCurrency
  return {
    operation_id: id,
    type: operation.operationType ?? "UNKNOWN",
    result: operation.operationResult ?? "UNKNOWN",
    amount: operation.operationAmount === undefined ? null : money(operation.operationAmount, currency),
    time: operation.operationTime ?? null,
    channel: operation.channel ?? null,
    cancelled_operation_id: UNDO_WORDS[operation.operationType ?? ""] ? operation.cancelledOperationId || null : null,
    note: noteOf(operation, undone),
    warnings: (operation.warnings ?? []).map(({ code, description }) => ({ code, description })),
    cancellable: id !== "" && id === cancellableId,
  }
}

/** Sum of the executed refunds that were not rolled back, in minor units. */
export function refundedMinor(operations: readonly Operation[]): string {
  const undone = undoneOperations(operations)
  return operations
    .filter((operation) => isExecutedRefund(operation) && !undone.has(operation.operationId ?? ""))
    .reduce((total, operation) => total.plus(operation.operationAmount ?? "0"), new BigNumber(0))
    .toFixed(0)
}

export function cardPaymentView(identity: PaymentIdentity, details: OrderDetails): NexiCardPaymentView {
  const { order, authorizedAmount, capturedAmount, lastOperationType } = details.orderStatus
  const currency = order.currency
  const operations = oldestFirst(details.operations ?? [])
  const undone = undoneOperations(operations)
  const state = readCardPaymentState(details)
  const cancellableId = cancellableCaptureId(state)
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
    capturable: capturable(state, operations, currency),
    refundable: refundable(state, currency),
    operations: operations.map((operation) => timelineOperation(operation, currency, undone, cancellableId)),
  }
}

/**
 * The one reading of a gateway order (GET /orders/{orderId}): where the payment stands in
 * Medusa's words, its operations in one order, what undid what, and the money in minor units.
 * Pure, and the only place that sums operation amounts or decides what a CANCEL or a void
 * undid: the providers, the staff use cases, the admin's views and the reconciliation all read
 * an order through `readCardOrder`. Every operation result is named here, so a new one shows up
 * as a type error rather than as a silently pending payment.
 *
 * Rules, and why (docs/contract/gateway.md):
 * - Order of operations: by operationTime where it is readable; an operation without a
 *   readable time keeps its place in the gateway's list, and the timed ones are put in time
 *   order around it; equal times keep the list's order. That is a total order (a comparator that
 *   mixed times and list positions would not be transitive, and NaN would make it arbitrary), and
 *   with every time readable and distinct it does not depend on the list's order at all.
 * - Undo: a CANCEL (rollback of a capture, or of a refund), a VOID, and a REFUND whose result is
 *   VOIDED (the gateway's record of a refund posted on an uncaptured authorization) each undo
 *   the operation their cancelledOperationId names, once they succeeded: result EXECUTED or
 *   VOIDED. PENDING is not done yet; FAILED, DECLINED and the like undid nothing. A void that
 *   names nothing (the gateway may leave cancelledOperationId empty) undoes the authorization,
 *   the only thing a void can reverse. A REFUND that refunded names its capture too, but does not
 *   undo it. The rule is the same for every reader: a capture whose CANCEL the gateway recorded
 *   as VOIDED is cancelled already.
 * - The payment: the AUTHORIZATION (EXPLICIT; a VOIDED one was voided in place), or else the
 *   first executed CAPTURE (IMPLICIT, where the capture is the payment). A cancelled capture
 *   gives its authorization back, capturable, and so does a cancelled IMPLICIT capture: the
 *   payment reads as authorized again, never as pending.
 * - Amounts come from the operations, not from orderStatus, whose authorizedAmount the gateway
 *   reports as 0 (or not at all) after an IMPLICIT capture: authorized is the live payment's
 *   amount (0 once voided), never less than what is captured.
 */

import type { Operation, OperationResult, OrderDetails, PaymentLink } from "../../gateway/schemas"
import type { PaymentStatus } from "../session-data"

/** How an operation undoes another: a CANCEL rolls back, a void reverses an authorization. */
export type UndoKind = "cancel" | "void"

/**
 * The money an operation moved, whatever undid it since: an executed CAPTURE, or a REFUND that
 * refunded or is refunding (PENDING: the money is spoken for).
 */
export type MoneyMove = "capture" | "refund"

export interface CardOrderOperation {
  /** The gateway's record, untouched. */
  operation: Operation
  /** Its amount in minor units ("0" when the gateway gives none). */
  amountMinor: string
  /** Set when this operation moved money. */
  moved?: MoneyMove
  /** Set when this operation is a CANCEL or a void, whether or not it succeeded. */
  undoKind?: UndoKind
  /** The operation this one undid: set only once it succeeded. */
  undoes?: string
  /** The CANCEL or void that undid this operation. */
  undoneBy?: { operationId: string; kind: UndoKind }
}

export interface CardInstrument {
  circuit?: string
  maskedPan?: string
}

/** A REFUND that moved money or is moving it, not rolled back. */
export interface CardOrderRefund {
  operationId: string
  amountMinor: string
  result: OperationResult
  /** REFUNDED or EXECUTED: the money is back on the card. PENDING ones are spoken for only. */
  settled: boolean
}

/** An executed CAPTURE, and what undid it if anything did. */
export interface CardOrderCapture {
  operationId: string
  amountMinor: string
  undoneBy?: string
}

export interface CardOrder {
  orderId: string
  currency: string
  status: PaymentStatus
  /** Why the payment failed or was cancelled, in words a merchant and a shopper understand. */
  reason?: string
  /** Every operation, oldest first (the order described above). */
  operations: CardOrderOperation[]
  /** The AUTHORIZATION (EXPLICIT) or CAPTURE (IMPLICIT) operation that paid the order. */
  paymentOperationId?: string
  /** The live CAPTURE, once the payment is captured. */
  captureOperationId?: string
  /** The live capture the gateway would let staff cancel now: no refund on it, no cancel under way (PS0027). */
  cancellableCaptureId?: string
  /** A cancel of the live capture is accepted but not settled: the authorization comes back only once it is. */
  captureCancelUnderWay: boolean
  authorizedMinor: string
  capturedMinor: string
  refundedMinor: string
  /** Refunds accepted but not settled: the money is already spoken for. */
  pendingRefundMinor: string
  /** What a capture may take now: the whole authorization, while it has no capture (one per authorization, PS0023). */
  capturableMinor: string
  /** What a refund may take now: captured less refunded and pending refunds (PS0029). */
  refundableMinor: string
  /** The card that paid (or, when nothing was paid, the first one the order names): what a saved card records. */
  paymentInstrument?: CardInstrument
  /** additionalData.threeDS of that operation, or of the first that reports one. */
  threeDS?: string
  /** The AUTHORIZATION the gateway voided in place (its result turned VOIDED, no operation of its own). */
  voidedInPlaceId?: string
  /** The AUTHORIZATION a card verification (actionType VERIFY) executed: it confirms the card and moves no money. */
  verification?: { operationId: string; instrument?: CardInstrument }
  refunds: CardOrderRefund[]
  captures: CardOrderCapture[]
  paymentLinks: PaymentLink[]
}

/**
 * Whether the order holds its authorization and nothing after it: no capture, refund, cancel or
 * void, whatever their result (an operation of a type this model does not know counts as one).
 * No write of ours has reached such an order: a capture, refund, void or cancel leaves one.
 */
export function holdsOnlyItsAuthorization(state: CardOrder): boolean {
  return state.operations.every(({ operation }) => operation.operationType === "AUTHORIZATION")
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

const VOIDED_REASON = "The authorization was voided."

/**
 * Oldest first: timed operations in time order (ties in list order) in the slots the timed
 * ones hold in the list; an untimed operation keeps its slot.
 */
export function inGatewayOrder(operations: readonly Operation[]): Operation[] {
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

function undoKindOf(operation: Operation): UndoKind | undefined {
  if (operation.operationType === "CANCEL") return "cancel"
  if (operation.operationType === "VOID") return "void"
  if (operation.operationType === "REFUND" && operation.operationResult === "VOIDED") return "void"
  return undefined
}

/** An undo that failed, or is still under way, undid nothing. */
function succeeded(operation: Operation): boolean {
  return operation.operationResult === "EXECUTED" || operation.operationResult === "VOIDED"
}

const MOVING_REFUND = new Set<OperationResult | undefined>(["REFUNDED", "EXECUTED", "PENDING"])

function movedBy(operation: Operation): MoneyMove | undefined {
  if (operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED") return "capture"
  if (operation.operationType === "REFUND" && MOVING_REFUND.has(operation.operationResult)) return "refund"
  return undefined
}

const isExecutedCapture = (operation: Operation) => movedBy(operation) === "capture"

function paymentOperationOf(operations: readonly Operation[]): Operation | undefined {
  return (
    operations.find(
      (operation) =>
        operation.operationType === "AUTHORIZATION" &&
        (operation.operationResult === "AUTHORIZED" || operation.operationResult === "VOIDED"),
    ) ?? operations.find(isExecutedCapture)
  )
}

/** Each operation with what undid it and what it undid, by the one rule above. */
function withUndos(operations: readonly Operation[], payment: Operation | undefined): CardOrderOperation[] {
  const read: CardOrderOperation[] = operations.map((operation) => ({
    operation,
    amountMinor: operation.operationAmount ?? "0",
    moved: movedBy(operation),
    undoKind: undoKindOf(operation),
  }))
  const byId = new Map(
    read.flatMap((entry) => (entry.operation.operationId ? [[entry.operation.operationId, entry]] : [])),
  )
  for (const entry of read) {
    if (!entry.undoKind || !succeeded(entry.operation)) continue
    const target =
      entry.operation.cancelledOperationId || (entry.undoKind === "void" ? payment?.operationId : undefined)
    if (!target) continue
    entry.undoes = target
    const undone = byId.get(target)
    if (undone && !undone.undoneBy)
      undone.undoneBy = { operationId: entry.operation.operationId ?? "", kind: entry.undoKind }
  }
  return read
}

function sumMinor(amounts: readonly { amountMinor: string }[]): bigint {
  return amounts.reduce((total, { amountMinor }) => total + BigInt(amountMinor), 0n)
}

function positive(minor: bigint): string {
  return (minor > 0n ? minor : 0n).toString()
}

function instrumentOf(operation: Operation | undefined): CardInstrument | undefined {
  if (!operation || (!operation.paymentCircuit && !operation.paymentInstrumentInfo)) return undefined
  return { circuit: operation.paymentCircuit, maskedPan: operation.paymentInstrumentInfo }
}

function refundsOf(read: readonly CardOrderOperation[]): CardOrderRefund[] {
  return read.flatMap(({ operation, amountMinor, moved, undoneBy }) => {
    const result = operation.operationResult
    if (moved !== "refund" || undoneBy || !result) return []
    return [{ operationId: operation.operationId ?? "", amountMinor, result, settled: result !== "PENDING" }]
  })
}

/** No money moved: the latest payment attempt tells whether it failed or is still under way. */
function unpaidStatus(operations: readonly Operation[]): { status: PaymentStatus; reason?: string } {
  const attempts = operations.filter(
    (operation) => operation.operationType === "AUTHORIZATION" || operation.operationType === "CAPTURE",
  )
  const result = (attempts.at(-1) ?? operations.at(-1))?.operationResult
  const meaning = result ? RESULT_MEANING[result] : "pending"
  if (!result || (meaning !== "failure" && meaning !== "cancel")) return { status: "pending" }
  return {
    status: meaning === "cancel" ? "canceled" : "error",
    reason: FAILURE_REASONS[result] ?? `The payment ended with result ${result}.`,
  }
}

/**
 * Whether the payment's authorization is gone: voided in place, undone (a cancel of an IMPLICIT
 * capture is not that: it gives the authorization back), or reversed by any void that succeeded.
 */
function isVoided(payment: Operation | undefined, read: readonly CardOrderOperation[]): boolean {
  const undone = read.find((entry) => entry.operation === payment)?.undoneBy
  return (
    payment?.operationResult === "VOIDED" ||
    (payment?.operationType === "AUTHORIZATION" && undone !== undefined) ||
    read.some((entry) => entry.undoKind === "void" && entry.undoes !== undefined)
  )
}

/** A cancel of the live capture the gateway accepted but has not settled: the capture still counts. */
function captureCancelUnderWay(liveCaptureId: string | undefined, read: readonly CardOrderOperation[]): boolean {
  return read.some(
    ({ operation, undoKind }) =>
      undoKind === "cancel" &&
      operation.operationResult === "PENDING" &&
      operation.cancelledOperationId === liveCaptureId,
  )
}

export function readCardOrder(details: OrderDetails): CardOrder {
  const ordered = inGatewayOrder(details.operations)
  const payment = paymentOperationOf(ordered)
  const read = withUndos(ordered, payment)
  const voided = isVoided(payment, read)

  const captures = read
    .filter((entry) => entry.moved === "capture")
    .map(({ operation, amountMinor, undoneBy }) => ({
      operationId: operation.operationId ?? "",
      amountMinor,
      ...(undoneBy ? { undoneBy: undoneBy.operationId } : {}),
    }))
  const liveCaptures = captures.filter((capture) => capture.undoneBy === undefined)
  const refunds = refundsOf(read)
  const captured = sumMinor(liveCaptures)
  const refunded = sumMinor(refunds.filter((refund) => refund.settled))
  const pendingRefund = sumMinor(refunds.filter((refund) => !refund.settled))
  const held = payment && !voided ? BigInt(payment.operationAmount ?? "0") : 0n
  const authorized = held > captured ? held : captured

  const liveCapture = liveCaptures[0]
  const { status, reason } = liveCapture
    ? { status: "captured" as const, reason: undefined }
    : voided
      ? { status: "canceled" as const, reason: VOIDED_REASON }
      : payment
        ? { status: "authorized" as const, reason: undefined }
        : unpaidStatus(ordered)

  const cancelUnderWay = captureCancelUnderWay(liveCapture?.operationId, read)
  const captureUnderWay = ordered.some(
    (operation) => operation.operationType === "CAPTURE" && operation.operationResult === "PENDING",
  )
  const card = payment ?? ordered.find((operation) => operation.paymentInstrumentInfo)
  const verified = ordered.find(
    (operation) => operation.operationType === "AUTHORIZATION" && operation.operationResult === "EXECUTED",
  )
  const threeDS =
    card?.additionalData?.threeDS ??
    ordered.find((operation) => operation.additionalData?.threeDS)?.additionalData?.threeDS

  return {
    orderId: details.orderStatus.order.orderId,
    currency: details.orderStatus.order.currency ?? "",
    status,
    ...(reason ? { reason } : {}),
    operations: read,
    paymentOperationId: payment?.operationId,
    captureOperationId: liveCapture?.operationId,
    cancellableCaptureId: liveCapture && refunds.length === 0 && !cancelUnderWay ? liveCapture.operationId : undefined,
    captureCancelUnderWay: cancelUnderWay,
    authorizedMinor: authorized.toString(),
    capturedMinor: captured.toString(),
    refundedMinor: refunded.toString(),
    pendingRefundMinor: pendingRefund.toString(),
    capturableMinor: status === "authorized" && !captureUnderWay ? positive(authorized - captured) : "0",
    refundableMinor: positive(captured - refunded - pendingRefund),
    ...(payment?.operationType === "AUTHORIZATION" && payment.operationResult === "VOIDED"
      ? { voidedInPlaceId: payment.operationId }
      : {}),
    paymentInstrument: instrumentOf(card),
    threeDS,
    ...(verified
      ? { verification: { operationId: verified.operationId ?? "", instrument: instrumentOf(verified) } }
      : {}),
    refunds,
    captures,
    paymentLinks: details.paymentLinks,
  }
}

/**
 * The state machine of one order's payment, derived from its operations:
 *
 *   payment      AUTHORIZATION/AUTHORIZED (explicit capture) or CAPTURE/EXECUTED (implicit)
 *   capture      one per authorization (partial or total); a CANCEL rolls it back, after
 *                which the authorization may be captured again
 *   refund       against the active capture, partial and repeated, up to the captured amount
 *   void         a refund on a payment that has no active capture: VOID/VOIDED, full amount
 *   cancel       only on a CAPTURE, only the same UTC day, only while it has no refunds
 *
 * Each decide* function answers either the operation to record or the gateway's refusal.
 */
import type { OperationResult, OperationType } from "../../gateway/schemas"
import type { SimResponse } from "../http-types"
import { GATEWAY_CODES, invalidRequest, notAllowed, rejected } from "./errors"
import type { StoredOperation } from "./store"

export interface PaymentLedger {
  /** The authorization, or the implicitly captured payment; absent when nothing was authorized. */
  payment?: StoredOperation
  voided: boolean
  activeCapture?: StoredOperation
  cancelledIds: ReadonlySet<string>
  authorizedAmount: bigint
  capturedAmount: bigint
  /** Refunded (or refund pending) amount per capture operation id. */
  refunded: ReadonlyMap<string, bigint>
}

export interface PlannedOperation {
  operationType: OperationType
  operationResult: OperationResult
  amount: bigint
  appliesTo: StoredOperation
}

export type Decision = { ok: true; plan: PlannedOperation } | { ok: false; answer: SimResponse }

const amountOf = (operation: StoredOperation) => BigInt(operation.record.operationAmount)
const typeOf = (operation: StoredOperation) => operation.record.operationType
const resultOf = (operation: StoredOperation) => operation.record.operationResult

function isPayment(operation: StoredOperation): boolean {
  const type = typeOf(operation)
  const result = resultOf(operation)
  return (
    (type === "AUTHORIZATION" && result === "AUTHORIZED") ||
    (type === "CAPTURE" && result === "EXECUTED" && operation.appliesTo === undefined)
  )
}

export function ledgerOf(operations: readonly StoredOperation[]): PaymentLedger {
  const payment = operations.find(isPayment)
  const cancelledIds = new Set(operations.filter((op) => typeOf(op) === "CANCEL").map((op) => op.appliesTo!))
  const voided = operations.some((op) => typeOf(op) === "VOID")
  const activeCaptures = operations.filter(
    (op) => typeOf(op) === "CAPTURE" && resultOf(op) === "EXECUTED" && !cancelledIds.has(op.record.operationId),
  )
  const refunded = new Map<string, bigint>()
  for (const op of operations) {
    if (typeOf(op) === "REFUND" && (resultOf(op) === "REFUNDED" || resultOf(op) === "PENDING")) {
      refunded.set(op.appliesTo!, (refunded.get(op.appliesTo!) ?? 0n) + amountOf(op))
    }
  }
  return {
    payment,
    voided,
    activeCapture: activeCaptures[0],
    cancelledIds,
    authorizedAmount: payment && !voided ? amountOf(payment) : 0n,
    capturedAmount: activeCaptures.reduce((sum, op) => sum + amountOf(op), 0n),
    refunded,
  }
}

function refuse(answer: SimResponse): Decision {
  return { ok: false, answer }
}

function plan(
  operationType: OperationType,
  operationResult: OperationResult,
  amount: bigint,
  appliesTo: StoredOperation,
): Decision {
  return { ok: true, plan: { operationType, operationResult, amount, appliesTo } }
}

function describe(operation: StoredOperation): string {
  return `operation ${operation.record.operationId} is a ${typeOf(operation)} with result ${resultOf(operation)}`
}

export function decideCapture(ledger: PaymentLedger, target: StoredOperation, amount: bigint): Decision {
  const id = target.record.operationId
  if (typeOf(target) === "VOID" || (target === ledger.payment && ledger.voided)) {
    return refuse(
      rejected(GATEWAY_CODES.captureAfterVoid, `capture refused: the authorization of operation ${id} was voided`),
    )
  }
  if (typeOf(target) === "REFUND") {
    return refuse(rejected(GATEWAY_CODES.captureAfterRefund, `capture refused: ${describe(target)}`))
  }
  if (typeOf(target) === "CAPTURE" && target !== ledger.payment) {
    return refuse(
      rejected(
        GATEWAY_CODES.captureAfterCapture,
        `capture refused: ${describe(target)}; capture the authorization, once`,
      ),
    )
  }
  if (target !== ledger.payment) {
    return refuse(notAllowed(`capture refused: ${describe(target)}; only an authorized payment can be captured`))
  }
  const capture = ledger.activeCapture
  if (capture) {
    const how =
      capture === target
        ? "was captured at once (captureType IMPLICIT)"
        : `was already captured by operation ${capture.record.operationId}`
    const code = ledger.refunded.has(capture.record.operationId)
      ? GATEWAY_CODES.captureAfterRefund
      : GATEWAY_CODES.captureAfterCapture
    return refuse(
      rejected(code, `capture refused: the payment ${how}; an authorization accepts one capture, partial or total`),
    )
  }
  if (amount === 0n) return refuse(invalidRequest("amount: must be above 0"))
  if (amount > ledger.authorizedAmount) {
    return refuse(
      notAllowed(
        `amount: capture of ${amount} is above the authorized amount ${ledger.authorizedAmount} of operation ${id}`,
      ),
    )
  }
  return plan("CAPTURE", "EXECUTED", amount, target)
}

export function decideRefund(
  ledger: PaymentLedger,
  target: StoredOperation,
  amount: bigint,
  refundResult: "REFUNDED" | "PENDING",
): Decision {
  const id = target.record.operationId
  if (typeOf(target) === "VOID" || (target === ledger.payment && ledger.voided)) {
    return refuse(
      rejected(GATEWAY_CODES.alreadyVoided, `refund refused: the authorization of operation ${id} was already voided`),
    )
  }
  const isPayment = target === ledger.payment
  if (!isPayment && !(typeOf(target) === "CAPTURE" && resultOf(target) === "EXECUTED")) {
    return refuse(notAllowed(`refund refused: ${describe(target)}; refund a capture or void an authorization`))
  }
  if (!isPayment && ledger.cancelledIds.has(id)) {
    const payment = ledger.payment!.record.operationId
    return refuse(
      notAllowed(`refund refused: capture ${id} was cancelled; refund operation ${payment} to void the authorization`),
    )
  }
  // A refund on the payment itself refunds its capture when there is one, and voids it otherwise.
  const capture = isPayment ? ledger.activeCapture : target
  if (amount === 0n) return refuse(invalidRequest("amount: must be above 0"))
  if (capture) return decideCaptureRefund(ledger, capture, amount, refundResult)
  if (amount > ledger.authorizedAmount) {
    return refuse(
      rejected(
        GATEWAY_CODES.refundAboveCaptured,
        `amount: ${amount} is greater than the authorized amount ${ledger.authorizedAmount}`,
      ),
    )
  }
  if (amount < ledger.authorizedAmount) {
    return refuse(
      notAllowed(
        `amount: operation ${id} is not captured, so the refund is a void, which reverses the full authorized amount ${ledger.authorizedAmount}; send that amount`,
      ),
    )
  }
  return plan("VOID", "VOIDED", amount, target)
}

function decideCaptureRefund(
  ledger: PaymentLedger,
  capture: StoredOperation,
  amount: bigint,
  refundResult: "REFUNDED" | "PENDING",
): Decision {
  const captured = amountOf(capture)
  const remaining = captured - (ledger.refunded.get(capture.record.operationId) ?? 0n)
  if (remaining === 0n) {
    return refuse(
      rejected(
        GATEWAY_CODES.alreadyRefunded,
        `refund refused: capture ${capture.record.operationId} is already fully refunded`,
      ),
    )
  }
  if (amount > remaining) {
    return refuse(
      rejected(
        GATEWAY_CODES.refundAboveCaptured,
        `amount: ${amount} is greater than what is left to refund (${remaining} of the captured ${captured})`,
      ),
    )
  }
  return plan("REFUND", refundResult, amount, capture)
}

export function decideCancel(ledger: PaymentLedger, target: StoredOperation, now: Date): Decision {
  const id = target.record.operationId
  if (typeOf(target) !== "CAPTURE" || resultOf(target) !== "EXECUTED") {
    return refuse(notAllowed(`cancel refused: ${describe(target)}; only a CAPTURE operation can be cancelled`))
  }
  if (ledger.cancelledIds.has(id)) return refuse(notAllowed(`cancel refused: capture ${id} is already cancelled`))
  if (ledger.refunded.has(id)) {
    return refuse(
      rejected(GATEWAY_CODES.alreadyRefunded, `cancel refused: capture ${id} has refunds; refund the rest instead`),
    )
  }
  if (target.record.operationTime.slice(0, 10) !== now.toISOString().slice(0, 10)) {
    return refuse(
      rejected(
        GATEWAY_CODES.cancelOnlySameDay,
        `cancel refused: capture ${id} was made on ${target.record.operationTime.slice(0, 10)} (UTC); a capture can be cancelled only on the same day, refund it instead`,
      ),
    )
  }
  return plan("CANCEL", "EXECUTED", amountOf(target), target)
}

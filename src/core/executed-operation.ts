/**
 * Settles a card write whose answer was lost by reading the gateway order: which operation,
 * if any, that write made. Gateway operations carry neither our idempotency key nor our
 * description, so a write is matched by what it must have left behind: its type, its amount,
 * the operation it applied to, and not being an operation the ledger already gave to another
 * write. Choices and limits: docs/ledger.md.
 */

import type { Operation, OrderDetails } from "../gateway/schemas"
import type { MoneyWrite } from "../modules/nexi-ledger/types"

type SettledWrite = Pick<MoneyWrite, "kind" | "amount_minor" | "target_ref">

function sameAmount(operation: Operation, write: SettledWrite): boolean {
  return operation.operationAmount !== undefined && BigInt(operation.operationAmount) === BigInt(write.amount_minor)
}

const MADE: Record<string, (operation: Operation, write: SettledWrite) => boolean> = {
  capture: (operation, write) =>
    operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED" && sameAmount(operation, write),
  refund: (operation, write) =>
    operation.operationType === "REFUND" &&
    (operation.operationResult === "REFUNDED" || operation.operationResult === "EXECUTED" || operation.operationResult === "PENDING") &&
    sameAmount(operation, write),
  void: (operation) =>
    (operation.operationType === "REFUND" || operation.operationType === "VOID") && operation.operationResult === "VOIDED",
  cancel_capture: (operation, write) =>
    operation.operationType === "CANCEL" && operation.operationResult !== "FAILED" && operation.cancelledOperationId === write.target_ref,
}

/** The operation types a write of each kind can leave behind. */
const TYPES_MADE: Record<string, readonly string[]> = {
  capture: ["CAPTURE"],
  refund: ["REFUND"],
  void: ["REFUND", "VOID", "AUTHORIZATION"],
  cancel_capture: ["CANCEL"],
}

/** The gateway's record cannot tell whether the write was made: the outcome stays unknown. */
export class UndecidableRecordError extends Error {}

/**
 * The id of the operation `write` made, or undefined when the order shows none. Throws
 * UndecidableRecordError when an operation the write could have made carries a type or result
 * this plugin does not know: reading it as "not made" could let staff send the money twice.
 * @param taken operation ids the ledger already holds for other writes
 */
export function executedOperationFor(write: SettledWrite, details: OrderDetails, taken: ReadonlySet<string>): string | undefined {
  const made = MADE[write.kind]
  if (!made) return undefined
  const operations = details.operations ?? []
  const found = operations.find((operation) => operation.operationId && !taken.has(operation.operationId) && made(operation, write))
  if (found?.operationId) return found.operationId
  const unreadable = operations.find(
    (operation) =>
      operation.unrecognized &&
      !taken.has(operation.operationId ?? "") &&
      (operation.unrecognized.operationType !== undefined || TYPES_MADE[write.kind]?.includes(operation.operationType ?? "")),
  )
  if (unreadable) {
    throw new UndecidableRecordError(`operation ${unreadable.operationId ?? "(no id)"} has a type or result this plugin does not know`)
  }
  // A void the gateway records on the authorization itself (its result turned VOIDED).
  if (write.kind === "void") {
    const voided = operations.find((operation) => operation.operationType === "AUTHORIZATION" && operation.operationResult === "VOIDED")
    return voided?.operationId
  }
  return undefined
}

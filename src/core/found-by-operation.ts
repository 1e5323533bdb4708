/**
 * Recovery of a card write by the operation it made (capture, refund, void, cancel of a
 * capture): the gateway order is read, and the write is matched with the operation it must
 * have left. Gateway operations carry neither our idempotency key nor our description, so a write is
 * matched by what it must have left behind: its type, its amount, the operation it applied to,
 * and not being an operation the ledger already gave to another write. Choices and limits:
 * docs/ledger.md.
 */

import type { GatewayClient } from "../gateway/gateway-client"
import type { Operation, OrderDetails } from "../gateway/schemas"
import type { MoneyWrite, PaymentLedger } from "../modules/nexi-ledger/types"
import { type CardOrderOperation, readCardOrder } from "./card-order"
import type { Recovery } from "./send-once"

type SettledWrite = Pick<MoneyWrite, "kind" | "amount_minor" | "target_ref">

function sameAmount(operation: Operation, write: SettledWrite): boolean {
  return operation.operationAmount !== undefined && BigInt(operation.operationAmount) === BigInt(write.amount_minor)
}

/**
 * What a write of each kind leaves behind, in the read model's words (src/core/card-order.ts):
 * a void or a cancel is any operation the model reads as one, by its one undo rule; a cancel
 * that did not fail, even one still under way, was made.
 */
const MADE: Record<string, (entry: CardOrderOperation, write: SettledWrite) => boolean> = {
  capture: ({ operation }, write) =>
    operation.operationType === "CAPTURE" && operation.operationResult === "EXECUTED" && sameAmount(operation, write),
  refund: ({ operation }, write) =>
    operation.operationType === "REFUND" &&
    (operation.operationResult === "REFUNDED" ||
      operation.operationResult === "EXECUTED" ||
      operation.operationResult === "PENDING") &&
    sameAmount(operation, write),
  void: (entry) => entry.undoKind === "void" && entry.undoes !== undefined,
  cancel_capture: ({ operation, undoKind }, write) =>
    undoKind === "cancel" &&
    operation.operationResult !== "FAILED" &&
    operation.cancelledOperationId === write.target_ref,
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
export function executedOperationFor(
  write: SettledWrite,
  details: OrderDetails,
  taken: ReadonlySet<string>,
): string | undefined {
  const made = MADE[write.kind]
  if (!made) return undefined
  const order = readCardOrder(details)
  const found = order.operations.find(
    (entry) => entry.operation.operationId && !taken.has(entry.operation.operationId) && made(entry, write),
  )
  if (found?.operation.operationId) return found.operation.operationId
  const unreadable = details.operations.find(
    (operation) =>
      operation.unrecognized &&
      !taken.has(operation.operationId ?? "") &&
      (operation.unrecognized.operationType !== undefined ||
        TYPES_MADE[write.kind]?.includes(operation.operationType ?? "")),
  )
  if (unreadable) {
    throw new UndecidableRecordError(
      `operation ${unreadable.operationId ?? "(no id)"} has a type or result this plugin does not know`,
    )
  }
  // A void the gateway records on the authorization itself (its result turned VOIDED).
  const payment = order.operations.find((entry) => entry.operation.operationId === order.paymentOperationId)?.operation
  if (write.kind === "void" && payment?.operationType === "AUTHORIZATION" && payment.operationResult === "VOIDED")
    return payment.operationId
  return undefined
}

/**
 * @param keyless the gateway takes no idempotency key for the write (a cancel,
 * docs/contract/gateway.md): a second sender is refused once the first one's write stands, so
 * a refusal is checked against the order too.
 */
export function byOperation(
  gateway: GatewayClient,
  ledger: PaymentLedger,
  { keyless }: { keyless: boolean },
): Recovery {
  return {
    refusalMayMeanMade: keyless,
    whenUnreadable: "wait",
    async find(write) {
      const details = await gateway.getOrder(write.gateway_ref)
      const others = (await ledger.writesOf(write.gateway_ref)).filter(
        (other) => other.idempotency_key !== write.idempotency_key,
      )
      const taken = new Set(others.map((other) => other.gateway_operation_id).filter((id): id is string => Boolean(id)))
      return executedOperationFor(write, details, taken)
    },
  }
}

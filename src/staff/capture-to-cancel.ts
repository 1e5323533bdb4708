/**
 * Which capture a "cancel capture" request is about, checked against the gateway's record of
 * the payment's order before anything is sent: only an executed CAPTURE of that order can be
 * cancelled. Pure; a refusal is a 400 naming operation_id and saying why.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { readCardOrder } from "../core/card/card-order"
import type { Operation, OrderDetails } from "../gateway/schemas"

export interface CaptureToCancel {
  capture: Operation
  /** The CANCEL that already rolled this capture back, if the gateway has one (the read model's undo rule). */
  cancelledBy?: Operation
}

function refuse(message: string): never {
  throw new MedusaError(MedusaError.Types.INVALID_DATA, `operation_id: ${message}`)
}

export function findCaptureToCancel(details: OrderDetails, operationId: string): CaptureToCancel {
  const order = readCardOrder(details)
  const orderId = order.orderId
  const entry = order.operations.find(({ operation }) => operation.operationId === operationId)
  const capture = entry?.operation
  if (!capture) refuse(`${operationId} is not an operation of this payment's gateway order ${orderId}`)
  if (capture.operationType !== "CAPTURE") {
    refuse(
      `${operationId} is not a capture (its type is ${capture.operationType ?? "unknown"}); only a capture can be cancelled`,
    )
  }
  if (capture.operationResult !== "EXECUTED") {
    refuse(
      `capture ${operationId} has result ${capture.operationResult ?? "unknown"}; only an executed capture can be cancelled`,
    )
  }
  const undoneBy = entry?.undoneBy
  const cancelledBy =
    undoneBy?.kind === "cancel"
      ? order.operations.find(({ operation }) => operation.operationId === undoneBy.operationId)?.operation
      : undefined
  return cancelledBy ? { capture, cancelledBy } : { capture }
}

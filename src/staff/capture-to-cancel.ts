/**
 * Which capture a "cancel capture" request is about, checked against the gateway's record of
 * the payment's order before anything is sent: only an executed CAPTURE of that order can be
 * cancelled. Pure; a refusal is a 400 naming operation_id and saying why.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { Operation, OrderDetails } from "../gateway/schemas"

export interface CaptureToCancel {
  capture: Operation
  /** The executed CANCEL that already rolled this capture back, if the gateway has one. */
  cancelledBy?: Operation
}

function refuse(message: string): never {
  throw new MedusaError(MedusaError.Types.INVALID_DATA, `operation_id: ${message}`)
}

export function findCaptureToCancel(details: OrderDetails, operationId: string): CaptureToCancel {
  const orderId = details.orderStatus.order.orderId
  const operations = details.operations ?? []
  const capture = operations.find((operation) => operation.operationId === operationId)
  if (!capture) refuse(`${operationId} is not an operation of this payment's gateway order ${orderId}`)
  if (capture.operationType !== "CAPTURE") {
    refuse(`${operationId} is not a capture (its type is ${capture.operationType ?? "unknown"}); only a capture can be cancelled`)
  }
  if (capture.operationResult !== "EXECUTED") {
    refuse(`capture ${operationId} has result ${capture.operationResult ?? "unknown"}; only an executed capture can be cancelled`)
  }
  const cancelledBy = operations.find(
    (operation) =>
      operation.operationType === "CANCEL" && operation.operationResult === "EXECUTED" && operation.cancelledOperationId === operationId,
  )
  return cancelledBy ? { capture, cancelledBy } : { capture }
}

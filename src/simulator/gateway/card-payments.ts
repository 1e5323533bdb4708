/**
 * Turning a checked card into the payment operation it produces, shared by hosted payments,
 * MOTO payments and card verifications so that the same card gives the same outcome everywhere.
 */
import type { ACTION_TYPES, CaptureType, OperationResult, OperationType } from "../../gateway/schemas"
import type { CardBehaviour } from "../cards"
import type { GatewayContext } from "./context"
import { type CardOperationInput, cardOperation } from "./operation-records"
import type { StoredOperation, StoredOrder } from "./store"

export interface PaymentStep {
  operationType: OperationType
  approvedResult: "AUTHORIZED" | "EXECUTED"
}

/**
 * EXPLICIT (the default) and PREAUTH leave an AUTHORIZATION to capture later; IMPLICIT is a
 * CAPTURE at once; VERIFY checks the card and moves no money (AUTHORIZATION/EXECUTED).
 */
export function paymentStep(captureType?: CaptureType, actionType?: (typeof ACTION_TYPES)[number]): PaymentStep {
  if (actionType === "VERIFY") return { operationType: "AUTHORIZATION", approvedResult: "EXECUTED" }
  if (actionType === "PREAUTH" || captureType !== "IMPLICIT") {
    return { operationType: "AUTHORIZATION", approvedResult: "AUTHORIZED" }
  }
  return { operationType: "CAPTURE", approvedResult: "EXECUTED" }
}

/** The result a card gets when no shopper answers a 3DS challenge (merchant-entered card data). */
export function resultWithout3DS(behaviour: CardBehaviour, step: PaymentStep): OperationResult {
  if (behaviour === "DECLINE") return "DECLINED"
  if (behaviour === "FAIL_3DS") return "THREEDS_FAILED"
  return step.approvedResult
}

export function recordCardOperation(
  context: GatewayContext,
  order: StoredOrder,
  input: Omit<CardOperationInput, "order" | "operationId" | "time">,
): StoredOperation {
  const operation = cardOperation({
    ...input,
    order,
    operationId: context.store.newOperationId(),
    time: context.clock.now(),
  })
  context.store.addOperation(order, operation)
  return operation
}

/**
 * Builds operation records the way the gateway writes them: card details masked, amounts in
 * minor units, cancelledOperationId pointing at the operation a VOID, REFUND or CANCEL undoes
 * (an empty string when none).
 */
import { randomBytes } from "node:crypto"
import type { Channel, OperationResult, OperationType, PaymentService } from "../../gateway/schemas"
import type { CheckedCard } from "../cards"
import type { OperationRecord, StoredOperation, StoredOrder } from "./store"

/** additionalData.threeDS: how the 3-D Secure step went. */
export type ThreeDSOutcome = "FRICTIONLESS" | "CHALLENGE" | "FAILED"

export interface CardOperationInput {
  order: StoredOrder
  operationId: string
  time: Date
  channel: Channel
  operationType: OperationType
  operationResult: OperationResult
  amount: string
  /** Absent when the shopper left before entering a card. */
  card?: CheckedCard
  /** How 3DS went; absent when 3DS does not apply (merchant-entered card data). */
  threeDS?: ThreeDSOutcome
  warnings?: { code: string; description: string }[]
  /** The pay-by-link link the operation was made on. */
  paymentLinkId?: string
  /** A wallet's payment: an APM of the wallet's circuit (as GET /payment_methods lists it), its card masked. */
  wallet?: Exclude<PaymentService, "CARDS">
}

const APPROVED_RESULTS: ReadonlySet<OperationResult> = new Set(["AUTHORIZED", "EXECUTED"])

export function cardOperation(input: CardOperationInput): StoredOperation {
  const { order, card } = input
  const record: OperationRecord = {
    orderId: order.order.orderId,
    operationId: input.operationId,
    channel: input.channel,
    operationType: input.operationType,
    operationResult: input.operationResult,
    operationTime: input.time.toISOString(),
    paymentMethod: input.wallet ? "APM" : "CARD",
    ...(card ? { paymentCircuit: input.wallet ?? card.circuit, paymentInstrumentInfo: card.maskedPan } : {}),
    paymentEndToEndId: randomDigits(20),
    cancelledOperationId: "",
    operationAmount: input.amount,
    operationCurrency: order.order.currency,
    additionalData: {
      ...(APPROVED_RESULTS.has(input.operationResult) ? { authorizationCode: randomDigits(6) } : {}),
      ...(card ? { cardCountry: card.cardCountry } : {}),
      ...(input.threeDS ? { threeDS: input.threeDS } : {}),
    },
    ...(order.order.customerInfo ? { customerInfo: order.order.customerInfo } : {}),
    ...(input.warnings ? { warnings: input.warnings } : {}),
    ...(input.paymentLinkId ? { paymentLinkId: input.paymentLinkId } : {}),
  }
  return { merchantId: order.merchantId, record }
}

export interface FollowUpInput {
  operationId: string
  time: Date
  operationType: OperationType
  operationResult: OperationResult
  amount: bigint
  appliesTo: StoredOperation
}

/** A back-office operation (capture, refund, void, cancel) acting on an earlier one. */
export function followUpOperation(input: FollowUpInput): StoredOperation {
  const source = input.appliesTo.record
  const undoes = input.operationType !== "CAPTURE"
  const record: OperationRecord = {
    orderId: source.orderId,
    operationId: input.operationId,
    channel: "BACKOFFICE",
    operationType: input.operationType,
    operationResult: input.operationResult,
    operationTime: input.time.toISOString(),
    paymentMethod: source.paymentMethod,
    paymentCircuit: source.paymentCircuit,
    paymentInstrumentInfo: source.paymentInstrumentInfo,
    paymentEndToEndId: source.paymentEndToEndId,
    cancelledOperationId: undoes ? source.operationId : "",
    operationAmount: input.amount.toString(),
    operationCurrency: source.operationCurrency,
    additionalData: { cardCountry: source.additionalData?.cardCountry },
  }
  return { merchantId: input.appliesTo.merchantId, record, appliesTo: source.operationId }
}

function randomDigits(count: number): string {
  return [...randomBytes(count)].map((byte) => String(byte % 10)).join("")
}

/**
 * What the admin shows of a card payment: the read model of its gateway order
 * (src/core/card/card-order.ts) in the route's contract (contract.ts), in exact major units. It
 * decides nothing of its own: amounts, what remains capturable and refundable, which capture
 * may be cancelled, the card, the order of the timeline and what undid what all come from the
 * read model. The gateway still refuses a cancel on a later day (PS0002): its day boundary is
 * not documented, so that one is left to the gateway and the dialog says so.
 */
import { type CardOrder, type CardOrderOperation, readCardOrder, type UndoKind } from "../core/card/card-order"
import type { OrderDetails } from "../gateway/schemas"
import { minorToMajorString } from "../money/amount"
import type { NexiCardPaymentView, NexiMoney, NexiTimelineOperation } from "./contract"

export interface PaymentIdentity {
  payment_id: string
  provider_id: string
}

/** The words for both ends of an undo. */
const UNDO_WORDS: Record<UndoKind, { undoes: string; undoneBy: string }> = {
  cancel: { undoes: "Cancels", undoneBy: "Cancelled by" },
  void: { undoes: "Voids", undoneBy: "Voided by" },
}

function money(minor: string, currency: string): NexiMoney {
  return { amount: minorToMajorString(minor, currency), currency }
}

/** `minor` as money when above zero: a remainder of nothing offers nothing. */
function remainder(minor: string, currency: string): NexiMoney | null {
  return BigInt(minor) > 0n ? money(minor, currency) : null
}

/** What this operation undid or tried to ("Cancels 123"), or what undid it ("Cancelled by 456"). */
function noteOf({ operation, undoKind, undoneBy }: CardOrderOperation): string | null {
  if (undoKind && operation.cancelledOperationId)
    return `${UNDO_WORDS[undoKind].undoes} ${operation.cancelledOperationId}`
  return undoneBy ? `${UNDO_WORDS[undoneBy.kind].undoneBy} ${undoneBy.operationId}` : null
}

function timelineOperation(entry: CardOrderOperation, order: CardOrder): NexiTimelineOperation {
  const { operation } = entry
  const id = operation.operationId ?? ""
  const currency = operation.operationCurrency ?? order.currency
  return {
    operation_id: id,
    type: operation.operationType ?? "UNKNOWN",
    result: operation.operationResult ?? "UNKNOWN",
    amount: operation.operationAmount === undefined ? null : money(operation.operationAmount, currency),
    time: operation.operationTime ?? null,
    channel: operation.channel ?? null,
    cancelled_operation_id: entry.undoKind ? operation.cancelledOperationId || null : null,
    note: noteOf(entry),
    warnings: (operation.warnings ?? []).map(({ code, description }) => ({ code, description })),
    cancellable: id !== "" && id === order.cancellableCaptureId,
  }
}

export function cardPaymentView(identity: PaymentIdentity, details: OrderDetails): NexiCardPaymentView {
  const order = readCardOrder(details)
  const { currency } = order
  return {
    kind: "card",
    ...identity,
    gateway_order_id: order.orderId,
    circuit: order.paymentInstrument?.circuit ?? null,
    masked_card: order.paymentInstrument?.maskedPan ?? null,
    three_ds: order.threeDS ?? null,
    authorized: money(order.authorizedMinor, currency),
    captured: money(order.capturedMinor, currency),
    refunded: money(order.refundedMinor, currency),
    last_operation_type: details.orderStatus.lastOperationType ?? null,
    capturable: remainder(order.capturableMinor, currency),
    refundable: remainder(order.refundableMinor, currency),
    operations: order.operations.map((entry) => timelineOperation(entry, order)),
  }
}

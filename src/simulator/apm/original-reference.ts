/**
 * Refunds and reversals act on a payment named by originalReference, its transactionId.
 * (docs/contract/apm.md mentions terminalReference for reversals; the simulator requires it on a
 * reversal and records it, but identifies the payment by transactionId for both types,
 * which the merchant always has.) Only the credentials that made the payment can see it.
 */
import type { InitializeRequest } from "../../apm/schemas"
import { type Fault, fault } from "./faults"
import type { Lifecycle } from "./lifecycle"
import type { TransactionStore } from "./store"
import { parseTransactionId } from "./transaction-id"
import type { TransactionRecord } from "./transaction-record"

export type OriginalLookup = { original: TransactionRecord } | { faults: Fault[] }

export function findOriginalPayment(
  store: TransactionStore,
  lifecycle: Lifecycle,
  owner: string,
  type: "refund" | "reversal",
  request: InitializeRequest,
): OriginalLookup {
  const reference = request.originalReference ?? ""
  const originalId = parseTransactionId(reference)
  const original = originalId === undefined ? undefined : store.get(originalId)
  if (!original || original.owner !== owner || original.type !== "payment") {
    return {
      faults: [
        fault(`originalReference ${reference} is not the transactionId of a payment of this merchant`, {
          field: "originalReference",
          originalReference: reference,
        }),
      ],
    }
  }
  const faults = [
    ...sameTermsFaults(original, request),
    ...(type === "refund"
      ? refundFaults(store, original, request)
      : reversalFaults(store, lifecycle, original, request)),
  ]
  return faults.length > 0 ? { faults } : { original }
}

/** A refund or reversal moves money back the way it came: same merchant, scheme and currency. */
function sameTermsFaults(original: TransactionRecord, request: InitializeRequest): Fault[] {
  const terms = [
    ["merchantId", original.merchant.merchantId, request.merchantId],
    ["method", original.method, request.method],
    ["purchaseAmount.currencyCode", original.amount.currencyCode, request.purchaseAmount.currencyCode],
  ] as const
  return terms
    .filter(([, ofOriginal, ofRequest]) => ofOriginal !== ofRequest)
    .map(([field, ofOriginal, ofRequest]) =>
      fault(`${field} ${ofRequest} differs from ${ofOriginal} of payment ${original.transactionId}`, {
        field,
        expected: ofOriginal,
        received: ofRequest,
      }),
    )
}

/** A held refund counts until the scheme rejects it: only then is its amount refundable again. */
function refundedTotal(store: TransactionStore, original: TransactionRecord): number {
  return store
    .linkedTo(original.transactionId)
    .filter((linked) => linked.type === "refund" && linked.state !== "REJECTED")
    .reduce((sum, refund) => sum + refund.amount.totalAmount, 0)
}

function refundFaults(store: TransactionStore, original: TransactionRecord, request: InitializeRequest): Fault[] {
  if (original.state !== "FINALIZED") {
    return [
      fault(`Payment ${original.transactionId} is ${original.state}; only a FINALIZED payment can be refunded`, {
        field: "originalReference",
        state: original.state,
      }),
    ]
  }
  const refundable = original.amount.totalAmount - refundedTotal(store, original)
  if (request.purchaseAmount.totalAmount > refundable) {
    return [
      fault(`purchaseAmount.totalAmount exceeds what remains refundable on payment ${original.transactionId}`, {
        field: "purchaseAmount.totalAmount",
        totalAmount: request.purchaseAmount.totalAmount,
        refundable,
      }),
    ]
  }
  return []
}

/** A reversal undoes the whole payment, so it must not have been refunded in part already. */
function reversalFaults(
  store: TransactionStore,
  lifecycle: Lifecycle,
  original: TransactionRecord,
  request: InitializeRequest,
): Fault[] {
  const id = original.transactionId
  if (original.state === "CANCELLED") {
    return [fault(`Payment ${id} has already been reversed`, { field: "originalReference", state: original.state })]
  }
  if (refundedTotal(store, original) > 0) {
    return [
      fault(`Payment ${id} has been refunded; refund the rest instead of reversing it`, { field: "originalReference" }),
    ]
  }
  if (!lifecycle.canAdvance(original, "CANCEL")) {
    return [
      fault(`Payment ${id} is ${original.state}; only a PENDING or FINALIZED payment can be reversed`, {
        field: "originalReference",
        state: original.state,
      }),
    ]
  }
  if (request.purchaseAmount.totalAmount !== original.amount.totalAmount) {
    return [
      fault(`A reversal undoes the whole payment: purchaseAmount.totalAmount must equal that of payment ${id}`, {
        field: "purchaseAmount.totalAmount",
        totalAmount: request.purchaseAmount.totalAmount,
        expected: original.amount.totalAmount,
      }),
    ]
  }
  return []
}

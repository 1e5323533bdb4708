/**
 * What the scheme does with a held refund (consumer-rules.ts refundsHeld): the control
 * endpoint's approve settles it, reject turns it down. Only the control endpoint decides:
 * a refund has no phone page, the consumer is not asked.
 */
import type { ConsumerDecision, DecisionResult } from "./consumer-decisions"
import type { Lifecycle, MoveEvent } from "./lifecycle"
import type { TransactionRecord } from "./transaction-record"

const DECISIONS: Partial<Record<ConsumerDecision, { event: MoveEvent; additionalInfo: string }>> = {
  approve: { event: "FINALIZE", additionalInfo: "Refund settled by the scheme" },
  reject: { event: "REJECT", additionalInfo: "The payer's account cannot receive refunds" },
}

export function applyRefundDecision(
  lifecycle: Lifecycle,
  record: TransactionRecord,
  decision: ConsumerDecision,
): DecisionResult {
  const move = DECISIONS[decision]
  if (!move || record.state !== "INITIALIZED") {
    return {
      applied: false,
      reason: `Refund ${record.transactionId} is ${record.state}; only a held (INITIALIZED) refund can be approved or rejected`,
    }
  }
  lifecycle.advance(record, move.event, move.additionalInfo)
  return { applied: true }
}

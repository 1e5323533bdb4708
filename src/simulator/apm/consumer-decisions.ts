/**
 * What the consumer can do with a payment waiting in their app, shared by the phone page,
 * the control endpoint and the consumerId rules so that all three move a payment the same way.
 */
import type { Lifecycle, MoveEvent } from "./lifecycle"
import type { TransactionRecord } from "./transaction-record"

export const CONSUMER_DECISIONS = ["approve", "reject", "expire"] as const
export type ConsumerDecision = (typeof CONSUMER_DECISIONS)[number]

const DECISIONS: Record<ConsumerDecision, { events: readonly MoveEvent[]; additionalInfo: string; done: string }> = {
  // Auto-capture: an approved payment is finalized at once, both steps recorded.
  approve: { events: ["AUTHORIZE", "FINALIZE"], additionalInfo: "Approved by the consumer", done: "approved" },
  reject: { events: ["REJECT"], additionalInfo: "Rejected by the consumer", done: "rejected" },
  expire: { events: ["TIMEOUT"], additionalInfo: "The consumer did not answer in time", done: "expired" },
}

export type DecisionResult = { applied: true } | { applied: false; reason: string }

export function applyConsumerDecision(
  lifecycle: Lifecycle,
  record: TransactionRecord,
  decision: ConsumerDecision,
): DecisionResult {
  const { events, additionalInfo, done } = DECISIONS[decision]
  if (record.state !== "PENDING") {
    return {
      applied: false,
      reason: `Transaction ${record.transactionId} is ${record.state}; only a PENDING payment can be ${done}`,
    }
  }
  for (const event of events) lifecycle.advance(record, event, additionalInfo)
  return { applied: true }
}

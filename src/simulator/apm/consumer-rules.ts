/**
 * Deterministic outcomes chosen by the last four characters of consumer.consumerId, so
 * tests and demos can reach every end state of a payment without clicking the phone page.
 * They apply to payments only; any other consumerId waits for the phone page or a control call.
 * One more ending acts on the payment's refunds instead (refundsHeld).
 */
import type { ConsumerDecision } from "./consumer-decisions"

/**
 * "rejectedAtInitialize": the scheme refuses the consumer, the initialize answer is 201.
 * A ConsumerDecision: the consumer decides at the moment of the merchant's first status
 * read, so that read already shows the outcome.
 */
export type ScriptedOutcome = "rejectedAtInitialize" | ConsumerDecision

const SCRIPTS: ReadonlyMap<string, ScriptedOutcome> = new Map([
  ["0000", "rejectedAtInitialize"],
  ["1111", "approve"],
  ["2222", "reject"],
  ["9999", "expire"],
])

export function scriptedOutcome(consumerId: string): ScriptedOutcome | undefined {
  return SCRIPTS.get(consumerId.slice(-4))
}

/**
 * Real schemes may answer a refund "initialized" and settle or reject it later; the
 * simulator's refunds settle at once. A payment of a consumerId ending in 3333 behaves like
 * any other, but its refunds stay INITIALIZED until a control call approves or rejects them,
 * so a test can reach a refund the scheme rejects after accepting it.
 */
export function refundsHeld(consumerId: string): boolean {
  return consumerId.slice(-4) === "3333"
}

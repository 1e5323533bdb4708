/**
 * POST /__sim/apm/{transactionId}/{approve|reject|expire}, routed here by the server in
 * control mode: the test's stand-in for the consumer of a payment, and for the scheme of a
 * held refund (approve or reject). Answers plain JSON (not the APM envelope, since this is
 * the simulator's own API):
 *   200 { ok: true, action, transactionId, previousState, state, accountState, transitions }
 *   400 / 404 / 409 { ok: false, action, transactionId, error } (409 carries the current state too)
 */
import type { SimResponse } from "../http-types"
import { applyConsumerDecision, CONSUMER_DECISIONS, type ConsumerDecision } from "./consumer-decisions"
import type { ApmContext } from "./context"
import { applyRefundDecision } from "./refund-decisions"
import { parseTransactionId } from "./transaction-id"

export function controlTransaction(ctx: ApmContext, action: ConsumerDecision, idText: string): SimResponse {
  const refuse = (status: number, error: string, extra: Record<string, unknown> = {}): SimResponse => ({
    status,
    body: { ok: false, action, transactionId: idText, error, ...extra },
  })
  if (!CONSUMER_DECISIONS.includes(action)) {
    return refuse(400, `Unknown action ${action}; use one of ${CONSUMER_DECISIONS.join(", ")}`)
  }
  const transactionId = parseTransactionId(idText)
  if (transactionId === undefined) return refuse(400, `transactionId ${idText} is not a number`)
  const record = ctx.store.get(transactionId)
  if (!record) return refuse(404, `No transaction ${idText}`)
  const previousState = record.state
  const decide = record.type === "refund" ? applyRefundDecision : applyConsumerDecision
  const result = decide(ctx.lifecycle, record, action)
  if (!result.applied) return refuse(409, result.reason, { state: record.state })
  ctx.changed()
  return {
    status: 200,
    body: {
      ok: true,
      action,
      transactionId,
      previousState,
      state: record.state,
      accountState: record.accountState,
      transitions: structuredClone(record.transitions),
    },
  }
}

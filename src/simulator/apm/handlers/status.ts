/**
 * GET /ms/aapay/v2/transaction/{transactionId}: the status operation, whose method and
 * path docs/contract/apm.md leaves open. Answers the extended envelope. The first read of a pending
 * payment is when a scripted consumer (consumer-rules.ts) makes their decision.
 */
import type { SimRequest, SimResponse } from "../../http-types"
import { applyConsumerDecision } from "../consumer-decisions"
import { scriptedOutcome } from "../consumer-rules"
import type { ApmContext } from "../context"
import { extendedEnvelope } from "../envelope"
import { fault } from "../faults"
import { badRequest, envelopeResponse, failure } from "../responses"
import { parseTransactionId } from "../transaction-id"
import type { TransactionRecord } from "../transaction-record"

export function readStatus(ctx: ApmContext, req: SimRequest, idParam: string, owner: string): SimResponse {
  const transactionId = parseTransactionId(idParam)
  if (transactionId === undefined) {
    return badRequest([
      fault(`transactionId ${idParam} is not a number`, { field: "transactionId", transactionId: idParam }),
    ])
  }
  const record = ctx.store.get(transactionId)
  // Another merchant's transaction is answered exactly like a missing one, so ids cannot be probed.
  const merchantFilter = req.query.get("merchantId")
  if (!record || record.owner !== owner || (merchantFilter !== null && merchantFilter !== record.merchant.merchantId)) {
    return failure(404, {
      message: "Requested transaction not found",
      faults: [fault(`No transaction ${idParam}`, { field: "transactionId", transactionId: idParam })],
    })
  }
  if (!record.statusRead) recordFirstRead(ctx, record)
  return envelopeResponse(200, extendedEnvelope(record, ctx.publicUrl))
}

function recordFirstRead(ctx: ApmContext, record: TransactionRecord): void {
  record.statusRead = true
  const outcome = record.type === "payment" ? scriptedOutcome(record.consumer.consumerId) : undefined
  if (outcome && outcome !== "rejectedAtInitialize") applyConsumerDecision(ctx.lifecycle, record, outcome)
  ctx.changed()
}

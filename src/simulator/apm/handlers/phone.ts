/**
 * GET /phone/{id} and POST /phone/{id}/approve|reject: the consumer's side. It is the
 * consumer's app, not the merchant's API, so it takes no credentials and works without
 * control mode; it answers HTML, the outcome shown on the same page.
 */
import type { SimResponse } from "../../http-types"
import { applyConsumerDecision } from "../consumer-decisions"
import type { ApmContext } from "../context"
import { renderMissingPage, renderPhonePage } from "../phone-page"
import { parseTransactionId } from "../transaction-id"
import type { TransactionRecord } from "../transaction-record"

const OUTCOME_NOTICE = { approve: "You approved the payment", reject: "You rejected the payment" } as const

export function showPhonePage(ctx: ApmContext, idParam: string): SimResponse {
  return withTransaction(ctx, idParam, (record) => ({ status: 200, html: renderPhonePage(record) }))
}

export function decideOnPhone(ctx: ApmContext, idParam: string, decision: "approve" | "reject"): SimResponse {
  return withTransaction(ctx, idParam, (record) => {
    const result = applyConsumerDecision(ctx.lifecycle, record, decision)
    if (!result.applied) return { status: 409, html: renderPhonePage(record, result.reason) }
    ctx.changed()
    return { status: 200, html: renderPhonePage(record, OUTCOME_NOTICE[decision]) }
  })
}

function withTransaction(
  ctx: ApmContext,
  idParam: string,
  respond: (record: TransactionRecord) => SimResponse,
): SimResponse {
  const transactionId = parseTransactionId(idParam)
  const record = transactionId === undefined ? undefined : ctx.store.get(transactionId)
  return record ? respond(record) : { status: 404, html: renderMissingPage(idParam) }
}

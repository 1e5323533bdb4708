/**
 * What an accepted initialize request does to the state, per transaction type:
 * - payment: INITIALIZED, then PENDING in the consumer's app (202), or REJECTED at once
 *   for a consumerId the scheme refuses (201);
 * - refund: its own transaction, FINALIZED at once (202), or left INITIALIZED (202) for a
 *   consumer whose refunds are held (consumer-rules.ts);
 * - reversal: its own transaction, FINALIZED at once, and the payment CANCELLED (202).
 */
import type { InitializeRequest, TransactionType } from "../../apm/schemas"
import { refundsHeld, scriptedOutcome } from "./consumer-rules"
import type { ApmContext } from "./context"
import type { Fault } from "./faults"
import { findOriginalPayment } from "./original-reference"
import type { NewTransaction, TransactionRecord } from "./transaction-record"

export type Initiation = { status: 201 | 202; record: TransactionRecord } | { faults: Fault[] }

export function initiateTransaction(
  ctx: ApmContext,
  type: TransactionType,
  request: InitializeRequest,
  owner: string,
): Initiation {
  if (type === "payment") return initiatePayment(ctx, request, owner)
  const lookup = findOriginalPayment(ctx.store, ctx.lifecycle, owner, type, request)
  if ("faults" in lookup) return lookup
  const { original } = lookup
  const record = ctx.lifecycle.create(newTransaction(type, request, owner))
  if (type === "refund") {
    if (refundsHeld(original.consumer.consumerId)) {
      record.additionalInfo = `Refund of payment ${original.transactionId} is waiting for the scheme`
    } else {
      ctx.lifecycle.advance(record, "FINALIZE", `Refund of payment ${original.transactionId}`)
    }
  } else {
    ctx.lifecycle.advance(record, "FINALIZE", `Reversal of payment ${original.transactionId}`)
    ctx.lifecycle.advance(original, "CANCEL", `Reversed by transaction ${record.transactionId}`)
  }
  return { status: 202, record }
}

function initiatePayment(ctx: ApmContext, request: InitializeRequest, owner: string): Initiation {
  const record = ctx.lifecycle.create(newTransaction("payment", request, owner))
  if (scriptedOutcome(request.consumer.consumerId) === "rejectedAtInitialize") {
    ctx.lifecycle.advance(record, "REJECT", "The scheme refused the consumer")
    return { status: 201, record }
  }
  ctx.lifecycle.advance(record, "RESEND", "Waiting for the consumer to approve the payment in the app")
  return { status: 202, record }
}

function newTransaction(type: TransactionType, request: InitializeRequest, owner: string): NewTransaction {
  return {
    type,
    owner,
    merchant: { merchantId: request.merchantId },
    method: request.method,
    amount: request.purchaseAmount,
    consumer: request.consumer,
    order: request.ecr2Naa?.order,
    ecr2Naa: request.ecr2Naa,
    additionalProperties: request.additionalProperties,
    batch: request.batch,
    terminalReference: request.terminalReference,
    originalReference: request.originalReference,
    message: request.message,
    trigger: request.trigger ?? "0",
  }
}

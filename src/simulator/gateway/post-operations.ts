/**
 * POST /operations/{id}/captures, /refunds and /cancels. ledger.ts decides; this module reads
 * the request, records the decided operation and answers `{ operationId, operationTime }`.
 */
import { CancelRequestSchema, PostOperationRequestSchema } from "../../gateway/schemas"
import { errorsAnswer, jsonAnswer } from "../http-helpers"
import type { SimResponse } from "../http-types"
import type { GatewayCall, GatewayContext } from "./context"
import { invalidRequest, notFound } from "./errors"
import { type Decision, decideCancel, decideCapture, decideRefund, ledgerOf, type PaymentLedger } from "./ledger"
import { followUpOperation } from "./operation-records"
import { currencyProblem, parseBody } from "./request-validation"
import type { StoredOperation } from "./store"

type Decide = (ledger: PaymentLedger, target: StoredOperation, amount: bigint) => Decision

export function capture(context: GatewayContext, call: GatewayCall): SimResponse {
  return amountOperation(context, call, decideCapture)
}

export function refund(context: GatewayContext, call: GatewayCall): SimResponse {
  const refundResult = context.refunds.initialResult()
  return amountOperation(context, call, (ledger, target, amount) => decideRefund(ledger, target, amount, refundResult))
}

export function cancel(context: GatewayContext, call: GatewayCall): SimResponse {
  const body = parseBody(call.req, CancelRequestSchema.optional())
  if (!body.ok) return body.answer
  const target = findTarget(context, call)
  if (!target) return notFound(`operation ${call.params[0]} not found`)
  return record(context, target, decideCancel(ledgerOfTarget(context, target), target, context.clock.now()))
}

function amountOperation(context: GatewayContext, call: GatewayCall, decide: Decide): SimResponse {
  const body = parseBody(call.req, PostOperationRequestSchema)
  if (!body.ok) return body.answer
  const target = findTarget(context, call)
  if (!target) return notFound(`operation ${call.params[0]} not found`)
  const { amount, currency } = body.value
  const expected = target.record.operationCurrency
  const unknownCurrency = currencyProblem("currency", currency)
  if (unknownCurrency) return errorsAnswer(400, [unknownCurrency])
  if (currency !== expected) {
    return invalidRequest(
      `currency: must be ${expected}, the currency of operation ${target.record.operationId} (got ${currency})`,
    )
  }
  return record(context, target, decide(ledgerOfTarget(context, target), target, BigInt(amount)))
}

function findTarget(context: GatewayContext, call: GatewayCall): StoredOperation | undefined {
  return context.store.findOperation(call.merchantId, call.params[0])
}

function ledgerOfTarget(context: GatewayContext, target: StoredOperation): PaymentLedger {
  return ledgerOf(context.store.operationsOf(context.store.orderOf(target)))
}

function record(context: GatewayContext, target: StoredOperation, decision: Decision): SimResponse {
  if (!decision.ok) return decision.answer
  const operation = followUpOperation({
    ...decision.plan,
    operationId: context.store.newOperationId(),
    time: context.clock.now(),
  })
  context.store.addOperation(context.store.orderOf(target), operation)
  if (operation.record.operationResult === "PENDING") context.refunds.track(operation)
  return jsonAnswer(200, { operationId: operation.record.operationId, operationTime: operation.record.operationTime })
}

/**
 * GET /orders, /orders/{orderId}, /operations and /operations/{operationId}. Lists are
 * newest first; every filter value is checked and a bad one is refused naming the parameter.
 */
import type { z } from "zod"
import { ListOperationsQuerySchema, ListOrdersQuerySchema, type OrderStatus } from "../../gateway/schemas"
import { describeIssue, errorsAnswer, jsonAnswer, SIM_CODES } from "../http-helpers"
import type { SimResponse } from "../http-types"
import type { GatewayCall, GatewayContext } from "./context"
import { notFound } from "./errors"
import { ledgerOf } from "./ledger"
import { paymentLinksOf } from "./payment-links"
import type { Parsed } from "./request-validation"
import type { StoredOperation, StoredOrder } from "./store"

export function orderStatusOf(context: GatewayContext, stored: StoredOrder): OrderStatus {
  const operations = context.store.operationsOf(stored)
  const ledger = ledgerOf(operations)
  const last = operations.at(-1)?.record
  return {
    order: stored.order,
    authorizedAmount: ledger.authorizedAmount.toString(),
    capturedAmount: ledger.capturedAmount.toString(),
    ...(last ? { lastOperationType: last.operationType, lastOperationTime: last.operationTime } : {}),
  }
}

export function getOrder(context: GatewayContext, call: GatewayCall): SimResponse {
  const [orderId] = call.params
  const stored = context.store.findOrder(call.merchantId, orderId)
  if (!stored) return notFound(`order ${orderId} not found`)
  return jsonAnswer(200, {
    orderStatus: orderStatusOf(context, stored),
    operations: context.store.operationsOf(stored).map((operation) => operation.record),
    paymentLinks: paymentLinksOf(stored),
  })
}

export function getOperation(context: GatewayContext, call: GatewayCall): SimResponse {
  const [operationId] = call.params
  const operation = context.store.findOperation(call.merchantId, operationId)
  return operation ? jsonAnswer(200, operation.record) : notFound(`operation ${operationId} not found`)
}

export function listOrders(context: GatewayContext, call: GatewayCall): SimResponse {
  const query = parseListQuery(call.req.query, ListOrdersQuerySchema)
  if (!query.ok) return query.answer
  const { fromTime, toTime, maxRecords, customField } = query.value
  const orders = context.store
    .ordersOf(call.merchantId)
    .filter((stored) => inInterval(stored.createdAt, fromTime, toTime))
    .filter((stored) => customField === undefined || stored.order.customField === customField)
  return jsonAnswer(200, {
    orders: newestFirst(orders, (stored) => stored.createdAt)
      .slice(0, maxRecords)
      .map((stored) => orderStatusOf(context, stored)),
  })
}

export function listOperations(context: GatewayContext, call: GatewayCall): SimResponse {
  const query = parseListQuery(call.req.query, ListOperationsQuerySchema)
  if (!query.ok) return query.answer
  const { fromTime, toTime, maxRecords, customField, channel, operationType } = query.value
  const matches = (operation: StoredOperation) => {
    const { record } = operation
    return (
      inInterval(record.operationTime, fromTime, toTime) &&
      (channel === undefined || record.channel === channel) &&
      (operationType === undefined || record.operationType === operationType) &&
      (customField === undefined || context.store.orderOf(operation).order.customField === customField)
    )
  }
  const operations = context.store.operationsOfMerchant(call.merchantId).filter(matches)
  return jsonAnswer(200, {
    operations: newestFirst(operations, (operation) => operation.record.operationTime)
      .slice(0, maxRecords)
      .map((operation) => operation.record),
  })
}

const TIME_PARAMETERS = ["fromTime", "toTime"] as const

function parseListQuery<S extends z.ZodObject>(query: URLSearchParams, schema: S): Parsed<z.output<S>> {
  const raw: Record<string, unknown> = Object.fromEntries(query)
  const problems: string[] = []
  if (raw.maxRecords !== undefined) {
    const text = String(raw.maxRecords)
    if (/^[1-9]\d*$/.test(text)) raw.maxRecords = Number(text)
    else problems.push(`maxRecords: must be a whole number above 0 (got "${text}")`)
  }
  for (const name of TIME_PARAMETERS) {
    const text = raw[name]
    if (text !== undefined && !isIsoDateTime(String(text))) {
      problems.push(`${name}: must be an ISO 8601 date-time such as 2025-01-31T23:59:59.000Z (got "${text}")`)
    }
  }
  if (problems.length === 0) {
    // Parameters the gateway does not know are ignored, as query strings often carry extras.
    const known = Object.fromEntries(Object.entries(raw).filter(([name]) => name in schema.shape))
    const parsed = schema.safeParse(known)
    if (parsed.success) return { ok: true, value: parsed.data }
    problems.push(...parsed.error.issues.map((issue) => describeIssue(issue)))
  }
  return {
    ok: false,
    answer: errorsAnswer(
      400,
      problems.map((description) => ({ code: SIM_CODES.invalidRequest, description })),
    ),
  }
}

function isIsoDateTime(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) &&
    !Number.isNaN(Date.parse(text))
  )
}

function inInterval(time: string, fromTime?: string, toTime?: string): boolean {
  const at = Date.parse(time)
  return (fromTime === undefined || at >= Date.parse(fromTime)) && (toTime === undefined || at <= Date.parse(toTime))
}

/** Newest first; items of the same millisecond keep their reverse insertion order. */
function newestFirst<T>(items: T[], timeOf: (item: T) => string): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => timeOf(b.item).localeCompare(timeOf(a.item)) || b.index - a.index)
    .map(({ item }) => item)
}

/**
 * The card gateway family: routes, then the checks every endpoint shares (X-API-KEY,
 * Correlation-Id) and, on captures and refunds, the Idempotency-Key: a repeated key of the
 * same merchant gets the first answer again and executes nothing.
 */
import { errorAnswer, SIM_CODES } from "../http-helpers"
import type { SimRequest, SimResponse } from "../http-types"
import { findRoute, type PathPattern, pathPattern, routeNotFound } from "../routing"
import type { GatewayCall, GatewayContext } from "./context"
import { GATEWAY_CODES, invalidRequest, rejected } from "./errors"
import { getOperation, getOrder, listOperations, listOrders } from "./lookups"
import { createHostedOrder, createMotoPayment, verifyCard } from "./order-requests"
import { listPaymentMethods } from "./payment-methods"
import { cancel, capture, refund } from "./post-operations"
import { merchantIdOf } from "./store"

type Handler = (context: GatewayContext, call: GatewayCall) => SimResponse

interface Route {
  method: "GET" | "POST"
  pattern: PathPattern
  handler: Handler
  idempotent?: boolean
}

const route = (method: Route["method"], path: string, handler: Handler, idempotent = false): Route => ({
  method,
  pattern: pathPattern(path),
  handler,
  idempotent,
})

const ROUTES: readonly Route[] = [
  route("POST", "/orders/hpp", createHostedOrder),
  route("POST", "/orders/moto", createMotoPayment),
  route("POST", "/orders/card_verification", verifyCard),
  route("GET", "/orders", listOrders),
  route("GET", "/orders/:orderId", getOrder),
  route("GET", "/operations", listOperations),
  route("GET", "/operations/:operationId", getOperation),
  route("POST", "/operations/:operationId/captures", capture, true),
  route("POST", "/operations/:operationId/refunds", refund, true),
  route("POST", "/operations/:operationId/cancels", cancel),
  route("GET", "/payment_methods", (context) => listPaymentMethods(context)),
]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function createGatewayHandler(context: GatewayContext, apiKeys: readonly string[]) {
  const accepted = new Set(apiKeys)
  return (req: SimRequest): SimResponse => {
    const lookup = findRoute(ROUTES, req.method, req.path)
    if (!lookup.found) return routeNotFound(lookup, req)
    const apiKey = req.headers["x-api-key"]
    if (!apiKey || !accepted.has(apiKey)) {
      return errorAnswer(
        401,
        SIM_CODES.unauthorized,
        apiKey ? "X-API-KEY is not a known API key" : "X-API-KEY header is missing",
      )
    }
    const correlationId = req.headers["correlation-id"]
    if (!correlationId || !UUID.test(correlationId)) {
      return invalidRequest(
        correlationId
          ? `Correlation-Id: must be a UUID (got "${correlationId}")`
          : "Correlation-Id header is missing (a fresh UUID per call)",
      )
    }
    const call: GatewayCall = { req, merchantId: merchantIdOf(apiKey), params: lookup.params }
    if (!lookup.route.idempotent) return lookup.route.handler(context, call)
    return runIdempotently(context, call, lookup.route.handler)
  }
}

function runIdempotently(context: GatewayContext, call: GatewayCall, handler: Handler): SimResponse {
  const key = call.req.headers["idempotency-key"]
  if (!key)
    return rejected(GATEWAY_CODES.idempotencyKey, "Idempotency-Key header is missing (a UUID, the same on every retry)")
  if (!UUID.test(key)) return rejected(GATEWAY_CODES.idempotencyKey, `Idempotency-Key: must be a UUID (got "${key}")`)
  const remembered = context.store.rememberedAnswer(call.merchantId, key)
  if (remembered) return remembered
  const answer = handler(context, call)
  // A server error executed nothing, so a retry with the same key may try again.
  if (answer.status < 500) context.store.rememberAnswer(call.merchantId, key, answer)
  return answer
}

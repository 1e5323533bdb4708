/**
 * The card gateway family: routes, then the checks every endpoint shares (X-API-KEY,
 * Correlation-Id) and, on captures, refunds and merchant-initiated charges, the
 * Idempotency-Key: a repeated key of the same merchant gets the first answer again and
 * executes nothing. On /orders/mit the key is refused for another request (another body or
 * endpoint), so a new charge sent under an old key is never answered with the old charge.
 */
import {
  cancelBuild,
  createBuildOrder,
  finalizePayment,
  getBuildState,
  getCardData,
  getIntegrity,
} from "../card-fields/endpoints"
import { errorAnswer, SIM_CODES } from "../http-helpers"
import type { SimRequest, SimResponse } from "../http-types"
import { findRoute, type PathPattern, pathPattern, routeNotFound } from "../routing"
import type { GatewayCall, GatewayContext } from "./context"
import { deactivateContract, listCustomerContracts } from "./contract-requests"
import { GATEWAY_CODES, invalidRequest, rejected } from "./errors"
import { getOperation, getOrder, listOperations, listOrders } from "./lookups"
import { chargeContract } from "./mit-charges"
import { createHostedOrder, createMotoPayment, verifyCard } from "./order-requests"
import { cancelPaymentLink, createPaymentLink } from "./payment-links"
import { listPaymentMethods } from "./payment-methods"
import { cancel, capture, refund } from "./post-operations"
import { merchantIdOf } from "./store"

type Handler = (context: GatewayContext, call: GatewayCall) => SimResponse

/**
 * replay: a repeated key gets the first answer, whatever the request (captures and refunds, as
 * pinned by idempotency.spec.ts); same-request: only for the same request, PS0025 otherwise.
 */
type Idempotency = "none" | "replay" | "same-request"

interface Route {
  method: "GET" | "POST"
  pattern: PathPattern
  handler: Handler
  idempotent: Idempotency
}

const route = (method: Route["method"], path: string, handler: Handler, idempotent: Idempotency = "none"): Route => ({
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
  route("POST", "/orders/mit", chargeContract, "same-request"),
  route("POST", "/orders/paybylink", createPaymentLink),
  route("POST", "/orders/build", createBuildOrder),
  route("POST", "/build/finalize_payment", finalizePayment),
  route("GET", "/build/state", getBuildState),
  route("POST", "/build/cancel", cancelBuild),
  route("GET", "/build/cardData", getCardData),
  route("GET", "/build/integrity", () => getIntegrity()),
  route("POST", "/paybylink/:linkId/cancels", cancelPaymentLink),
  route("GET", "/contracts/customers/:customerId", listCustomerContracts),
  route("POST", "/contracts/:contractId/deactivation", deactivateContract),
  route("POST", "/operations/:operationId/captures", capture, "replay"),
  route("POST", "/operations/:operationId/refunds", refund, "replay"),
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
    if (lookup.route.idempotent === "none") return lookup.route.handler(context, call)
    return runIdempotently(context, call, lookup.route)
  }
}

function runIdempotently(context: GatewayContext, call: GatewayCall, route: Route): SimResponse {
  const key = call.req.headers["idempotency-key"]
  if (!key)
    return rejected(GATEWAY_CODES.idempotencyKey, "Idempotency-Key header is missing (a UUID, the same on every retry)")
  if (!UUID.test(key)) return rejected(GATEWAY_CODES.idempotencyKey, `Idempotency-Key: must be a UUID (got "${key}")`)
  const fingerprint = route.idempotent === "same-request" ? requestFingerprint(call.req) : undefined
  const remembered = context.store.rememberedAnswer(call.merchantId, key)
  if (remembered && fingerprint !== undefined && remembered.fingerprint !== fingerprint) {
    return rejected(
      GATEWAY_CODES.idempotencyKey,
      `Idempotency-Key: ${key} was already used for another request; a retry must repeat the same request, a new request needs a new key`,
    )
  }
  if (remembered) return { status: remembered.status, body: remembered.body }
  const answer = route.handler(context, call)
  // A server error executed nothing, so a retry with the same key may try again.
  if (answer.status < 500) context.store.rememberAnswer(call.merchantId, key, answer, fingerprint)
  return answer
}

/** The endpoint and the body's JSON with its members sorted, so the key order of a retry does not matter. */
function requestFingerprint(req: SimRequest): string {
  let body: unknown = req.rawBody
  try {
    body = JSON.parse(req.rawBody)
  } catch {
    // Not JSON: compared as sent (the handler refuses it anyway).
  }
  return `${req.method} ${req.path} ${JSON.stringify(body, sortedMembers)}`
}

function sortedMembers(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

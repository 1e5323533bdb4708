/**
 * Maps a request below the /apm mount to its handler, with the simulator's shared path
 * matching. The merchant API routes all pass the Authorization check first, in this one
 * place, so no operation can forget it; the phone routes are the consumer's app and take
 * no credentials. Unknown paths and methods get the APM envelope, not the gateway's errors.
 */
import type { SimRequest, SimResponse } from "../http-types"
import { findRoute, type PathPattern, pathPattern } from "../routing"
import { authorizationFault } from "./auth"
import type { ApmContext } from "./context"
import { fault } from "./faults"
import { initialize } from "./handlers/initialize"
import { decideOnPhone, showPhonePage } from "./handlers/phone"
import { readStatus } from "./handlers/status"
import { STATUS_PATH_PREFIX } from "./links"
import { failure } from "./responses"

type Route = { method: string; pattern: PathPattern } & (
  | { merchantApi: true; handle(ctx: ApmContext, req: SimRequest, params: string[], owner: string): SimResponse }
  | { merchantApi: false; handle(ctx: ApmContext, params: string[]): SimResponse }
)

const ROUTES: readonly Route[] = [
  {
    method: "POST",
    pattern: pathPattern(`${STATUS_PATH_PREFIX}/:type/initialize`),
    merchantApi: true,
    handle: (ctx, req, [type], owner) => initialize(ctx, req, type, owner, false),
  },
  {
    method: "POST",
    pattern: pathPattern(`${STATUS_PATH_PREFIX}/:type/initializeWithIdempotency`),
    merchantApi: true,
    handle: (ctx, req, [type], owner) => initialize(ctx, req, type, owner, true),
  },
  {
    method: "GET",
    pattern: pathPattern(`${STATUS_PATH_PREFIX}/:transactionId`),
    merchantApi: true,
    handle: (ctx, req, [transactionId], owner) => readStatus(ctx, req, transactionId, owner),
  },
  {
    method: "GET",
    pattern: pathPattern("/phone/:transactionId"),
    merchantApi: false,
    handle: (ctx, [transactionId]) => showPhonePage(ctx, transactionId),
  },
  {
    method: "POST",
    pattern: pathPattern("/phone/:transactionId/approve"),
    merchantApi: false,
    handle: (ctx, [transactionId]) => decideOnPhone(ctx, transactionId, "approve"),
  },
  {
    method: "POST",
    pattern: pathPattern("/phone/:transactionId/reject"),
    merchantApi: false,
    handle: (ctx, [transactionId]) => decideOnPhone(ctx, transactionId, "reject"),
  },
]

export function dispatch(ctx: ApmContext, req: SimRequest): SimResponse {
  const method = req.method.toUpperCase()
  const lookup = findRoute(ROUTES, method, req.path)
  if (!lookup.found) {
    if (lookup.status === 404) {
      return failure(404, {
        message: "No such operation",
        faults: [fault(`No operation at ${method} ${req.path}`, { path: req.path })],
      })
    }
    const allowed = lookup.allowed.join(", ")
    return failure(
      405,
      { message: "Method not allowed", faults: [fault(`${req.path} takes ${allowed}`, { method, allowed })] },
      { allow: allowed },
    )
  }
  const { route, params } = lookup
  if (!route.merchantApi) return route.handle(ctx, params)
  const denied = authorizationFault(req.headers.authorization, ctx.credentials)
  if (denied) {
    return failure(
      401,
      { message: "Operation not allowed", faults: [denied] },
      { "www-authenticate": 'Bearer realm="apm"' },
    )
  }
  return route.handle(ctx, req, params, ctx.credentials.consumerKey)
}

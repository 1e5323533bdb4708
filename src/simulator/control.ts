/**
 * The control API below /__sim (only with control: true): what tests use to look inside the
 * simulator, to play the shopper without a browser, and to inject faults. JSON in, JSON out.
 */
import { z } from "zod"
import type { ApmSimulator } from "./apm"
import type { SimClock } from "./clock"
import { createControlGuard } from "./control-guard"
import type { RequestFaults } from "./faults"
import { RequestFaultSchema } from "./faults"
import { contractView } from "./gateway/contracts"
import { RefundSettlementSchema, type RefundSettler } from "./gateway/refund-settlement"
import type { GatewayStore, StoredOrder, StoredPaymentLink } from "./gateway/store"
import { type HostedOutcome, type HostedPayments, walletOf } from "./hpp/flow"
import { describeIssue, errorAnswer, errorsAnswer, jsonAnswer, readJsonBody, SIM_CODES } from "./http-helpers"
import type { SimRequest, SimResponse } from "./http-types"
import type { IssuedTokens } from "./issued-tokens"
import { NotificationFaultSchema, type NotificationSender } from "./notifications"
import type { RequestLog } from "./request-log"
import { findRoute, type PathPattern, pathPattern, routeNotFound } from "./routing"

export interface ControlDeps {
  store: GatewayStore
  hostedPayments: HostedPayments
  requestLog: RequestLog
  notifications: NotificationSender
  faults: RequestFaults
  clock: SimClock
  refunds: RefundSettler
  apm: ApmSimulator
  latency: { get(): number; set(ms: number): void }
  /** Not cleared by reset(): see issued-tokens.ts. */
  issuedTokens: IssuedTokens
  /** Clears every kind of state, fault and record. */
  reset(): void
  /** Its host is accepted in the Host header besides loopback ones (see control-guard.ts). */
  publicUrl: string
}

type Handler = (
  deps: ControlDeps,
  params: string[],
  body: unknown,
  query: URLSearchParams,
) => SimResponse | Promise<SimResponse>

interface ControlRoute {
  method: "GET" | "POST" | "DELETE"
  pattern: PathPattern
  handler: Handler
}

const route = (method: ControlRoute["method"], path: string, handler: Handler): ControlRoute => ({
  method,
  pattern: pathPattern(path),
  handler,
})

const ok = (body: unknown = { ok: true }) => jsonAnswer(200, body)

/** Parses a control body or answers 400 naming the bad member. */
function parse<S extends z.ZodType>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; answer: SimResponse } {
  const parsed = schema.safeParse(body ?? {})
  if (parsed.success) return { ok: true, value: parsed.data }
  const errors = parsed.error.issues.map((issue) => ({
    code: SIM_CODES.invalidRequest,
    description: describeIssue(issue),
  }))
  return { ok: false, answer: errorsAnswer(400, errors) }
}

function withBody<S extends z.ZodType>(
  schema: S,
  act: (deps: ControlDeps, value: z.output<S>, params: string[]) => SimResponse | Promise<SimResponse>,
): Handler {
  return (deps, params, body) => {
    const parsed = parse(schema, body)
    return parsed.ok ? act(deps, parsed.value, params) : parsed.answer
  }
}

const HostedTarget = { token: z.string().optional(), awaitNotification: z.boolean().default(true) }
/** pan and expiryDate are required unless the order pays with a saved card (the flow says which is missing). */
const PaySchema = z.strictObject({
  pan: z.string().optional(),
  expiryDate: z.string().optional(),
  cvv: z.string().optional(),
  challenge: z.enum(["pass", "fail"]).default("pass"),
  ...HostedTarget,
})
const CancelSchema = z.strictObject(HostedTarget)
/** A link is found by its id; outcome picks a sandbox card when no pan is sent. */
const PayLinkSchema = PaySchema.omit({ token: true }).extend({ outcome: z.enum(["approve", "decline"]).optional() })
const LINK_CARDS = {
  approve: { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
  decline: { pan: "5515931855858729", expiryDate: "1230", cvv: "123" },
} as const

const ROUTES: readonly ControlRoute[] = [
  route("GET", "/requests", (deps) => ok(deps.requestLog.view())),
  route("GET", "/security-tokens", (deps) => ok({ securityTokens: deps.issuedTokens.list() })),
  route("GET", "/notifications", (deps) => ok({ notifications: deps.notifications.list() })),
  route("POST", "/notifications/flush", async (deps) => {
    await deps.notifications.flush()
    return ok({ notifications: deps.notifications.list() })
  }),
  route("POST", "/reset", (deps) => {
    deps.reset()
    return ok()
  }),
  route("GET", "/faults", (deps) => ok({ faults: deps.faults.list(), notifications: deps.notifications.getFaults() })),
  route(
    "POST",
    "/faults",
    withBody(RequestFaultSchema, (deps, fault) => ok({ fault: deps.faults.add(fault) })),
  ),
  route("DELETE", "/faults", (deps) => {
    deps.faults.clear()
    deps.notifications.clearFaults()
    return ok()
  }),
  route(
    "POST",
    "/faults/notifications",
    withBody(NotificationFaultSchema, (deps, faults) => {
      deps.notifications.setFaults(faults)
      return ok({ notifications: deps.notifications.getFaults() })
    }),
  ),
  route("DELETE", "/faults/notifications", (deps) => {
    deps.notifications.clearFaults()
    return ok()
  }),
  route("GET", "/latency", (deps) => ok({ ms: deps.latency.get() })),
  route(
    "POST",
    "/latency",
    withBody(z.strictObject({ ms: z.number().int().min(0).max(600_000) }), (deps, { ms }) => {
      deps.latency.set(ms)
      return ok({ ms })
    }),
  ),
  route("GET", "/clock", (deps) => ok(clockView(deps.clock))),
  route(
    "POST",
    "/clock",
    withBody(z.strictObject({ offsetMs: z.number().int() }), (deps, { offsetMs }) => {
      deps.clock.setOffsetMs(offsetMs)
      return ok(clockView(deps.clock))
    }),
  ),
  route("GET", "/settings/refunds", (deps) => ok(deps.refunds.get())),
  route(
    "POST",
    "/settings/refunds",
    withBody(RefundSettlementSchema, (deps, setting) => {
      deps.refunds.set(setting)
      return ok(setting)
    }),
  ),
  route(
    "POST",
    "/refunds/settle",
    withBody(z.strictObject({ operationId: z.string().optional() }), async (deps, { operationId }) =>
      ok({ settled: await deps.refunds.settle(operationId) }),
    ),
  ),
  route(
    "POST",
    "/hpp/:orderId/pay",
    withBody(PaySchema, async (deps, pay, [orderId]) => {
      const order = findHostedOrder(deps, orderId, pay.token)
      return order.ok ? payOnPage(deps, order.value, pay) : order.answer
    }),
  ),
  route(
    "POST",
    "/paybylink/:linkId/pay",
    withBody(PayLinkSchema, async (deps, { outcome, ...pay }, [linkId]) => {
      const order = findLinkOrder(deps, linkId)
      if (!order.ok) return order.answer
      const card = pay.pan === undefined && outcome ? LINK_CARDS[outcome] : {}
      return payOnPage(deps, order.value, { ...card, ...pay })
    }),
  ),
  route("POST", "/paybylink/:linkId/expire", (deps, [linkId]) => {
    // The link's expiry moved to now: what a link left unpaid past its expirationDate looks like.
    const order = findLinkOrder(deps, linkId)
    if (!order.ok) return order.answer
    const link = order.value.paymentLink as StoredPaymentLink
    link.expiresAt = new Date(deps.clock.now().getTime() - 1).toISOString()
    deps.store.changed()
    return ok({ linkId, expirationDate: link.expiresAt })
  }),
  route(
    "POST",
    "/hpp/:orderId/cancel",
    withBody(CancelSchema, async (deps, cancel, [orderId]) => {
      const order = findHostedOrder(deps, orderId, cancel.token)
      if (!order.ok) return order.answer
      const done = deps.hostedPayments.cancel(order.value)
      return done.kind === "done"
        ? outcomeAnswer(done.outcome, cancel.awaitNotification)
        : closedAnswer(order.value.order.orderId, done.reason)
    }),
  ),
  route("GET", "/contracts", (deps, _params, _body, query) => {
    const customerId = query.get("customerId")
    const contracts = deps.store
      .allContracts()
      .filter((contract) => customerId === null || contract.customerId === customerId)
    return ok({ contracts: contracts.map(contractView) })
  }),
  route("POST", "/apm/:transactionId/:action", (deps, [transactionId, action]) => {
    if (action !== "approve" && action !== "reject" && action !== "expire") {
      return errorAnswer(404, SIM_CODES.notFound, `unknown APM action "${action}" (approve, reject or expire)`)
    }
    return deps.apm.control(action, transactionId)
  }),
]

function clockView(clock: SimClock) {
  return { now: clock.now().toISOString(), offsetMs: clock.getOffsetMs() }
}

/** By order id; the page token (from hostedPage) disambiguates an id two merchants both used. */
function findHostedOrder(
  deps: ControlDeps,
  orderId: string,
  token: string | undefined,
): { ok: true; value: StoredOrder } | { ok: false; answer: SimResponse } {
  const candidates = deps.store
    .hostedOrdersWithId(orderId)
    .filter((order) => token === undefined || order.hosted!.pageToken === token)
  if (candidates.length === 1) return { ok: true, value: candidates[0] }
  if (candidates.length === 0)
    return { ok: false, answer: errorAnswer(404, SIM_CODES.notFound, `no hosted order ${orderId}`) }
  return {
    ok: false,
    answer: errorAnswer(
      409,
      SIM_CODES.notAllowed,
      `several merchants have a hosted order ${orderId}; pass the token of its hostedPage`,
    ),
  }
}

/** The shopper's card on the page of a hosted order or a payment link (the page's own code). */
async function payOnPage(deps: ControlDeps, order: StoredOrder, pay: z.output<typeof PaySchema>): Promise<SimResponse> {
  // A wallet's page has one button: it ignores the card.
  const submission = walletOf(order)
    ? deps.hostedPayments.payWithWallet(order)
    : deps.hostedPayments.submitCard(order, pay)
  if (submission.kind === "invalid") {
    return errorAnswer(400, SIM_CODES.invalidRequest, `${submission.field}: ${submission.message}`)
  }
  const done =
    submission.kind === "challenge" ? deps.hostedPayments.answerChallenge(order, pay.challenge === "pass") : submission
  return done.kind === "done"
    ? outcomeAnswer(done.outcome, pay.awaitNotification)
    : closedAnswer(order.order.orderId, done.reason)
}

function findLinkOrder(
  deps: ControlDeps,
  linkId: string,
): { ok: true; value: StoredOrder } | { ok: false; answer: SimResponse } {
  const [order, ...others] = deps.store.ordersWithLinkId(linkId)
  if (!order) return { ok: false, answer: errorAnswer(404, SIM_CODES.notFound, `no payment link ${linkId}`) }
  if (others.length > 0) {
    return {
      ok: false,
      answer: errorAnswer(409, SIM_CODES.notAllowed, `several merchants have a payment link ${linkId}`),
    }
  }
  return { ok: true, value: order }
}

/** reason: why a payment link takes nothing; without one, the page's outcome is final. */
function closedAnswer(orderId: string, reason: string | undefined): SimResponse {
  return errorAnswer(
    409,
    SIM_CODES.notAllowed,
    reason ?? `hosted order ${orderId} is already paid, failed or cancelled`,
  )
}

async function outcomeAnswer(outcome: HostedOutcome, awaitNotification: boolean): Promise<SimResponse> {
  let notification: unknown = null
  if (outcome.notification) notification = awaitNotification ? await outcome.notification : { queued: true }
  return ok({
    result: outcome.result,
    operations: outcome.operations,
    redirectUrl: outcome.redirectUrl ?? null,
    notification,
    ...(outcome.declineReason ? { declineReason: outcome.declineReason } : {}),
  })
}

export function createControlHandler(deps: ControlDeps) {
  const guard = createControlGuard(deps.publicUrl)
  return async (req: SimRequest): Promise<SimResponse> => {
    const refusal = guard.refusal(req)
    if (refusal) return refusal
    const lookup = findRoute(ROUTES, req.method, req.path)
    if (!lookup.found) return routeNotFound(lookup, { ...req, path: `/__sim${req.path}` })
    const body = readJsonBody(req)
    if (!body.ok) return body.answer
    return lookup.route.handler(deps, lookup.params, body.value, req.query)
  }
}

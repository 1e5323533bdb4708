/**
 * The card gateway's XPay Build endpoints (version 1): POST /orders/build, POST
 * /build/finalize_payment, GET /build/state, POST /build/cancel, GET /build/cardData and GET
 * /build/integrity. A Build order is a hosted order (the same checks, the same notification
 * with its securityToken, the same operations in GET /orders/{orderId}) whose card is typed
 * in the gateway's fields in the merchant's page; sessions.ts says how its state is derived.
 */
import { BuildRequestSchema, BuildSessionRequestSchema, type PaymentSession } from "../../gateway/schemas"
import type { GatewayCall, GatewayContext } from "../gateway/context"
import { GATEWAY_CODES, invalidRequest, notAllowed, notFound, rejected } from "../gateway/errors"
import { hostedOrderProblems, openHostedOrder } from "../gateway/order-requests"
import { parseBody } from "../gateway/request-validation"
import { newSecret, type StoredOrder } from "../gateway/store"
import { HostedPayments, walletOf } from "../hpp/flow"
import { type ErrorRecord, errorsAnswer, jsonAnswer, SIM_CODES } from "../http-helpers"
import type { SimResponse } from "../http-types"
import { isLoopbackHost } from "../options"
import { SDK_INTEGRITY } from "./sdk"
import { BUILD_SESSION_TTL_MS, buildRefusal, buildStateOf, buildStateView, fieldsOf } from "./sessions"

/** The simulator's own code for an expired session (the real server-side code is not public). */
export const BUILD_CODES = { sessionExpired: "SIM1101" } as const

export function createBuildOrder(context: GatewayContext, call: GatewayCall): SimResponse {
  const parsed = parseBody(call.req, BuildRequestSchema)
  if (!parsed.ok) return parsed.answer
  const { version, merchantUrl, order, paymentSession } = parsed.value
  const problems = [
    ...hostedOrderProblems(context, call, order, paymentSession),
    ...versionProblems(version),
    ...merchantUrlProblems(merchantUrl),
    ...savedCardProblems(paymentSession),
  ]
  if (problems.length > 0) return errorsAnswer(400, problems)
  const { stored, securityToken } = openHostedOrder(context, call, order, paymentSession)
  const sessionId = uniqueSessionId(context)
  stored.hosted!.build = {
    sessionId,
    merchantOrigin: new URL(merchantUrl).origin,
    expiresAt: new Date(context.clock.now().getTime() + BUILD_SESSION_TTL_MS).toISOString(),
  }
  context.store.changed()
  if (walletOf(stored)) {
    const { state, url } = buildStateView(context.publicUrl, stored)
    return jsonAnswer(200, { sessionId, securityToken, state, url })
  }
  return jsonAnswer(200, { sessionId, securityToken, fields: fieldsOf(context.publicUrl, sessionId) })
}

/** Pays with the card the fields confirmed: the outcome, or the 3-D Secure challenge's address. */
export function finalizePayment(context: GatewayContext, call: GatewayCall): SimResponse {
  const session = sessionOfBody(context, call)
  if (!session.ok) return session.answer
  const order = session.order
  const sessionId = order.hosted!.build!.sessionId
  const wallet = walletOf(order)
  if (wallet) {
    return notAllowed(
      `finalize refused: session ${sessionId} pays with ${wallet} on the wallet's page, not with card fields`,
    )
  }
  const expired = buildRefusal(order, context.clock.now())
  if (expired) return rejected(BUILD_CODES.sessionExpired, expired)
  const state = buildStateOf(order)
  if (state === "CARD_DATA_COLLECTION") {
    return notAllowed(
      `finalize refused: the fields of session ${sessionId} have not confirmed a card (state CARD_DATA_COLLECTION); finalize once the SDK reports READY_FOR_PAYMENT`,
    )
  }
  if (state !== "READY_FOR_PAYMENT") {
    return notAllowed(
      `finalize refused: session ${sessionId} was already finalized (state ${state}); read GET /build/state`,
    )
  }
  new HostedPayments(context).pay(order, order.hosted!.build!.confirmed!)
  return jsonAnswer(200, stateOf(context, order))
}

export function getBuildState(context: GatewayContext, call: GatewayCall): SimResponse {
  const session = sessionOfQuery(context, call)
  return session.ok ? jsonAnswer(200, stateOf(context, session.order)) : session.answer
}

/** Ends a session without a payment: a CANCEL operation (gateway-facts.md), notified as any outcome. */
export function cancelBuild(context: GatewayContext, call: GatewayCall): SimResponse {
  const session = sessionOfBody(context, call)
  if (!session.ok) return session.answer
  const order = session.order
  const cancelled = new HostedPayments(context).cancel(order, "CANCEL")
  if (cancelled.kind === "closed") {
    const why =
      cancelled.reason ?? `session ${order.hosted!.build!.sessionId} already has its outcome (state PAYMENT_COMPLETE)`
    return notAllowed(`cancel refused: ${why}`)
  }
  return jsonAnswer(200, stateOf(context, order))
}

/** What may be known of the confirmed card: BIN, last four digits, expiry (MMYY), circuit. */
export function getCardData(context: GatewayContext, call: GatewayCall): SimResponse {
  const session = sessionOfQuery(context, call)
  if (!session.ok) return session.answer
  const build = session.order.hosted!.build!
  if (!build.confirmed) {
    return notAllowed(`session ${build.sessionId} has no card yet (state ${buildStateOf(session.order)})`)
  }
  const { card, bin } = build.confirmed
  const { month, year } = card.expiry
  return jsonAnswer(200, {
    bin,
    lastFourDigits: card.maskedPan.slice(-4),
    expiringDate: `${String(month).padStart(2, "0")}${String(year % 100).padStart(2, "0")}`,
    circuit: card.circuit,
  })
}

export function getIntegrity(): SimResponse {
  return jsonAnswer(200, { integrity: SDK_INTEGRITY })
}

function stateOf(context: GatewayContext, order: StoredOrder) {
  const last = context.store.operationsOf(order).at(-1)?.record
  return buildStateView(context.publicUrl, order, last)
}

type Session = { ok: true; order: StoredOrder } | { ok: false; answer: SimResponse }

function sessionOfBody(context: GatewayContext, call: GatewayCall): Session {
  const parsed = parseBody(call.req, BuildSessionRequestSchema)
  return parsed.ok ? sessionOf(context, call, parsed.value.sessionId) : parsed
}

function sessionOfQuery(context: GatewayContext, call: GatewayCall): Session {
  const sessionId = call.req.query.get("sessionId")
  if (!sessionId) return { ok: false, answer: invalidRequest("sessionId: is required (query parameter)") }
  return sessionOf(context, call, sessionId)
}

/** Another merchant's session reads as unknown, as another merchant's order does. */
function sessionOf(context: GatewayContext, call: GatewayCall, sessionId: string): Session {
  const order = context.store.findOrderByBuildSession(sessionId, call.merchantId)
  return order ? { ok: true, order } : { ok: false, answer: notFound(`Build session ${sessionId} not found`) }
}

function versionProblems(version: string | undefined): ErrorRecord[] {
  if (version === undefined || version === "1") return []
  const what = version === "2" ? "pagoPA's" : "one that starts with payment method buttons"
  return [invalid(`version: the simulator serves version 1 (the card fields at once), not ${version} (${what})`)]
}

/** The fields talk to this origin only; the real gateway wants the page on https (loopback is let through for tests). */
function merchantUrlProblems(merchantUrl: string): ErrorRecord[] {
  const refuse = (why: string) => [
    { code: GATEWAY_CODES.invalidMerchantUrl, description: `merchantUrl: "${merchantUrl}" ${why}` },
  ]
  let url: URL
  try {
    url = new URL(merchantUrl)
  } catch {
    return refuse(
      "is not a URL; send the scheme and host of the page that shows the fields, such as https://shop.example",
    )
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    return refuse(
      "must be https (http only for localhost and 127.x addresses): the page that hosts card fields needs it",
    )
  }
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "") {
    return refuse(`must be the scheme and host only (${url.origin}), without a path or query`)
  }
  return []
}

function savedCardProblems(session: PaymentSession): ErrorRecord[] {
  if (session.recurrence?.action !== "SUBSEQUENT_PAYMENT") return []
  return [
    invalid(
      "paymentSession.recurrence.action: SUBSEQUENT_PAYMENT (a saved card's one-click payment) is not simulated for Build; use POST /orders/hpp",
    ),
  ]
}

function invalid(description: string): ErrorRecord {
  return { code: SIM_CODES.invalidRequest, description }
}

/** Unguessable and unique across merchants: the fields find their session by it alone. */
function uniqueSessionId(context: GatewayContext): string {
  let sessionId: string
  do {
    sessionId = newSecret()
  } while (context.store.findOrderByBuildSession(sessionId))
  return sessionId
}

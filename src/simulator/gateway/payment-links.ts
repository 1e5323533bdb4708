/**
 * POST /orders/paybylink and /paybylink/{linkId}/cancels. A payment link is a hosted order
 * whose page the shopper opens from the link, until the end of its expirationDate (UTC, by the
 * simulator's clock). The page is the hosted page of hpp/flow.ts: every outcome is final as
 * there, the approved operation pays the link, and a cancelled or expired link takes nothing.
 */
import { randomBytes } from "node:crypto"
import { PayByLinkRequestSchema } from "../../gateway/schemas"
import { type ErrorRecord, errorsAnswer, jsonAnswer, SIM_CODES } from "../http-helpers"
import type { SimResponse } from "../http-types"
import type { GatewayCall, GatewayContext } from "./context"
import { notAllowed, notFound } from "./errors"
import { hostedOrderProblems, openHostedOrder } from "./order-requests"
import { parseBody } from "./request-validation"
import type { StoredOrder, StoredPaymentLink } from "./store"

/** The facts allow an expirationDate at most 90 days ahead. */
const MAX_DAYS_AHEAD = 90
const DAY_MS = 86_400_000

export function createPaymentLink(context: GatewayContext, call: GatewayCall): SimResponse {
  const parsed = parseBody(call.req, PayByLinkRequestSchema)
  if (!parsed.ok) return parsed.answer
  const { order, paymentSession, expirationDate } = parsed.value
  const now = context.clock.now()
  const problems = [
    ...hostedOrderProblems(context, call, order, paymentSession),
    ...actionTypeProblems(paymentSession.actionType),
    ...expirationProblems(expirationDate, now),
  ]
  if (problems.length > 0) return errorsAnswer(400, problems)
  const { stored, hostedPage, securityToken } = openHostedOrder(context, call, order, paymentSession)
  const paymentLink: StoredPaymentLink = {
    linkId: newLinkId(context, call.merchantId),
    link: hostedPage,
    expiresAt: `${expirationDate}T23:59:59.999Z`,
    cancelled: false,
  }
  stored.paymentLink = paymentLink
  context.store.changed()
  return jsonAnswer(200, { paymentLink: paymentLinkView(stored, paymentLink), securityToken })
}

/** An unpaid link can no longer be paid; cancelling it again changes nothing and answers the same. */
export function cancelPaymentLink(context: GatewayContext, call: GatewayCall): SimResponse {
  const [linkId] = call.params
  const order = context.store.findOrderByLinkId(call.merchantId, linkId)
  if (!order?.paymentLink) return notFound(`payment link ${linkId} not found`)
  const { paidByOperationId } = order.paymentLink
  if (paidByOperationId) {
    return notAllowed(
      `cancel refused: payment link ${linkId} was paid by operation ${paidByOperationId}; refund that operation instead`,
    )
  }
  order.paymentLink.cancelled = true
  context.store.changed()
  return jsonAnswer(200, {})
}

/** Why the link's page takes no payment, or undefined when it may (or the order has no link). */
export function linkRefusal(order: StoredOrder, now: Date): string | undefined {
  const link = order.paymentLink
  if (!link || link.paidByOperationId) return undefined
  if (link.cancelled) return `payment link ${link.linkId} was cancelled by the merchant`
  if (now.getTime() > Date.parse(link.expiresAt)) {
    return `payment link ${link.linkId} expired at the end of ${link.expiresAt.slice(0, 10)} (UTC)`
  }
  return undefined
}

/** The order lookup's paymentLinks member. */
export function paymentLinksOf(order: StoredOrder) {
  return order.paymentLink ? [paymentLinkView(order, order.paymentLink)] : []
}

function paymentLinkView(order: StoredOrder, link: StoredPaymentLink) {
  return {
    linkId: link.linkId,
    amount: order.hosted!.paymentSession.amount,
    expirationDate: link.expiresAt,
    link: link.link,
    ...(link.paidByOperationId ? { paidByOperationId: link.paidByOperationId } : {}),
  }
}

function actionTypeProblems(actionType: string | undefined): ErrorRecord[] {
  if (actionType === undefined || actionType === "PAY") return []
  return [
    {
      code: SIM_CODES.invalidRequest,
      description: `paymentSession.actionType: a payment link collects money and takes PAY (got ${actionType})`,
    },
  ]
}

function expirationProblems(expirationDate: string, now: Date): ErrorRecord[] {
  const today = now.toISOString().slice(0, 10)
  const latest = new Date(Date.parse(`${today}T00:00:00Z`) + MAX_DAYS_AHEAD * DAY_MS).toISOString().slice(0, 10)
  if (expirationDate < today) {
    return [invalid(`expirationDate: ${expirationDate} has passed (today is ${today} UTC)`)]
  }
  if (expirationDate > latest) {
    return [invalid(`expirationDate: ${expirationDate} is more than ${MAX_DAYS_AHEAD} days ahead (at most ${latest})`)]
  }
  return []
}

function invalid(description: string): ErrorRecord {
  return { code: SIM_CODES.invalidRequest, description }
}

/** 18 letters and digits, unique among the merchant's links. */
function newLinkId(context: GatewayContext, merchantId: string): string {
  let linkId: string
  do {
    linkId = `L${randomBytes(9).toString("hex").slice(0, 17).toUpperCase()}`
  } while (context.store.findOrderByLinkId(merchantId, linkId))
  return linkId
}

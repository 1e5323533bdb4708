/**
 * POST /orders/hpp, /orders/moto and /orders/card_verification: the requests that open an
 * order. A hosted order gets its operations later, from the hosted page (hpp/flow.ts), and
 * saves or uses a card on file when its paymentSession.recurrence asks (contracts.ts).
 */
import {
  CardVerificationRequestSchema,
  HppRequestSchema,
  MotoRequestSchema,
  type Order,
  type PaymentSession,
} from "../../gateway/schemas"
import { type CardCheck, checkCard } from "../cards"
import { type ErrorRecord, errorsAnswer, jsonAnswer, SIM_CODES } from "../http-helpers"
import type { SimResponse } from "../http-types"
import { paymentStep, recordCardOperation, resultWithout3DS } from "./card-payments"
import type { GatewayCall, GatewayContext } from "./context"
import { recurrenceProblems } from "./recurrence-validation"
import { orderProblems, parseBody, sessionProblems } from "./request-validation"
import { newSecret, type StoredOrder } from "./store"

export function createHostedOrder(context: GatewayContext, call: GatewayCall): SimResponse {
  const parsed = parseBody(call.req, HppRequestSchema)
  if (!parsed.ok) return parsed.answer
  const { order, paymentSession } = parsed.value
  const problems = hostedOrderProblems(context, call, order, paymentSession)
  if (problems.length > 0) return errorsAnswer(400, problems)
  const { hostedPage, securityToken } = openHostedOrder(context, call, order, paymentSession)
  return jsonAnswer(200, { hostedPage, securityToken })
}

/** What /orders/hpp and /orders/paybylink both check of their order and payment session. */
export function hostedOrderProblems(
  context: GatewayContext,
  call: GatewayCall,
  order: Order,
  paymentSession: PaymentSession,
): ErrorRecord[] {
  const amountRule = paymentSession.actionType === "VERIFY" ? "any" : "positive"
  return [
    ...orderProblems(context.store, call.merchantId, order, amountRule),
    ...sessionProblems(paymentSession, order),
    ...recurrenceProblems({
      store: context.store,
      merchantId: call.merchantId,
      order,
      session: paymentSession,
      now: context.clock.now(),
    }),
  ]
}

/** Stores an order that waits for the shopper on the hosted page, with the token of its notifications. */
export function openHostedOrder(
  context: GatewayContext,
  call: GatewayCall,
  order: Order,
  paymentSession: PaymentSession,
): { stored: StoredOrder; hostedPage: string; securityToken: string } {
  const securityToken = newSecret()
  context.issuedTokens.record(securityToken)
  const pageToken = newSecret()
  const stored: StoredOrder = {
    merchantId: call.merchantId,
    order,
    createdAt: context.clock.now().toISOString(),
    hosted: { paymentSession, securityToken, pageToken, state: "open" },
    operationIds: [],
  }
  context.store.addOrder(stored)
  return { stored, hostedPage: hostedPageUrl(context.publicUrl, stored), securityToken }
}

/** The hosted page of an order, or one of its steps ("challenge"): its page token opens it. */
export function hostedPageUrl(publicUrl: string, order: StoredOrder, step?: "challenge"): string {
  const path = `/hpp/${encodeURIComponent(order.order.orderId)}${step ? `/${step}` : ""}`
  return `${publicUrl}${path}?token=${order.hosted!.pageToken}`
}

const MOTO_WARNING = {
  code: "TRA001",
  description: "3-D Secure not performed: card data entered by the merchant (MOTO)",
}

/** Challenge cards are approved: nobody is there to answer a challenge. Others as on the hosted page. */
export function createMotoPayment(context: GatewayContext, call: GatewayCall): SimResponse {
  const parsed = parseBody(call.req, MotoRequestSchema)
  if (!parsed.ok) return parsed.answer
  const { order, card, captureType } = parsed.value
  const check = checkCard(card, context.clock.now(), { cvvRequired: false })
  const problems = [...orderProblems(context.store, call.merchantId, order, "positive"), ...cardProblems(check)]
  if (!check.ok || problems.length > 0) return errorsAnswer(400, problems)
  const stored = openOrder(context, call, order)
  const step = paymentStep(captureType)
  const operation = recordCardOperation(context, stored, {
    channel: "BACKOFFICE",
    operationType: step.operationType,
    operationResult: resultWithout3DS(check.card.behaviour, step),
    amount: order.amount,
    card: check.card,
    warnings: [MOTO_WARNING],
  })
  return jsonAnswer(200, { operation: operation.record })
}

/** A verification moves no money: AUTHORIZATION with result EXECUTED, or DECLINED. */
export function verifyCard(context: GatewayContext, call: GatewayCall): SimResponse {
  const parsed = parseBody(call.req, CardVerificationRequestSchema)
  if (!parsed.ok) return parsed.answer
  const { order, card } = parsed.value
  const check = checkCard(card, context.clock.now(), { cvvRequired: false })
  const problems = [...orderProblems(context.store, call.merchantId, order, "any"), ...cardProblems(check)]
  if (!check.ok || problems.length > 0) return errorsAnswer(400, problems)
  const stored = openOrder(context, call, order)
  const approved = check.card.behaviour === "APPROVE" || check.card.behaviour === "CHALLENGE"
  const operation = recordCardOperation(context, stored, {
    channel: "BACKOFFICE",
    operationType: "AUTHORIZATION",
    operationResult: approved ? "EXECUTED" : "DECLINED",
    amount: order.amount,
    card: check.card,
  })
  return jsonAnswer(200, { operation: operation.record })
}

function cardProblems(check: CardCheck): ErrorRecord[] {
  return check.ok ? [] : [{ code: SIM_CODES.invalidRequest, description: `card.${check.field}: ${check.message}` }]
}

export function openOrder(context: GatewayContext, call: GatewayCall, order: StoredOrder["order"]): StoredOrder {
  const stored: StoredOrder = {
    merchantId: call.merchantId,
    order,
    createdAt: context.clock.now().toISOString(),
    operationIds: [],
  }
  context.store.addOrder(stored)
  return stored
}

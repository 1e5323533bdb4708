/**
 * Checks of order requests beyond their zod shapes: codes that must exist (ISO 4217, 3166
 * alpha-3, 639-2), merchant URLs, amounts against each other, and orderId uniqueness.
 */
import type { z } from "zod"
import type { Order, PaymentSession } from "../../gateway/schemas"
import { isKnownCurrency } from "../../money/currencies"
import { type ErrorRecord, readJsonBody, SIM_CODES } from "../http-helpers"
import type { SimRequest, SimResponse } from "../http-types"
import { isCountryAlpha3, isLanguageAlpha3 } from "../iso-codes"
import { GATEWAY_CODES, validationAnswer } from "./errors"
import type { GatewayStore } from "./store"

export type Parsed<T> = { ok: true; value: T } | { ok: false; answer: SimResponse }

export function parseBody<S extends z.ZodType>(req: SimRequest, schema: S): Parsed<z.output<S>> {
  const body = readJsonBody(req)
  if (!body.ok) return body
  const parsed = schema.safeParse(body.value)
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, answer: validationAnswer(parsed.error) }
}

function invalid(description: string): ErrorRecord {
  return { code: SIM_CODES.invalidRequest, description }
}

export function currencyProblem(field: string, currency: string): ErrorRecord | undefined {
  return isKnownCurrency(currency) ? undefined : invalid(`${field}: "${currency}" is not an ISO 4217 currency`)
}

export function orderProblems(
  store: GatewayStore,
  merchantId: string,
  order: Order,
  amountRule: "positive" | "any",
): ErrorRecord[] {
  const problems: (ErrorRecord | undefined)[] = [currencyProblem("order.currency", order.currency)]
  if (store.findOrder(merchantId, order.orderId)) {
    problems.push(
      invalid(`order.orderId: "${order.orderId}" was already used by this merchant; use a new one for every payment`),
    )
  }
  if (amountRule === "positive" && BigInt(order.amount) === 0n) problems.push(invalid("order.amount: must be above 0"))
  const info = order.customerInfo
  for (const address of ["billingAddress", "shippingAddress"] as const) {
    const country = info?.[address]?.country
    if (country !== undefined && !isCountryAlpha3(country)) {
      problems.push(
        invalid(`order.customerInfo.${address}.country: "${country}" is not an ISO 3166-1 alpha-3 country code`),
      )
    }
  }
  const giftCardCurrency = info?.merchantRiskIndicator?.giftCardAmount?.currency
  if (giftCardCurrency !== undefined) {
    problems.push(currencyProblem("order.customerInfo.merchantRiskIndicator.giftCardAmount.currency", giftCardCurrency))
  }
  order.transactionSummary?.forEach((summary, index) => {
    if (summary.language !== undefined && !isLanguageAlpha3(summary.language)) {
      problems.push(
        invalid(`order.transactionSummary.${index}.language: "${summary.language}" is not an ISO 639-2 language code`),
      )
    }
  })
  return problems.filter((problem) => problem !== undefined)
}

const MERCHANT_URLS = ["resultUrl", "cancelUrl", "notificationUrl"] as const

export function sessionProblems(session: PaymentSession, order: Order): ErrorRecord[] {
  const problems: ErrorRecord[] = []
  if (!isLanguageAlpha3(session.language)) {
    problems.push(invalid(`paymentSession.language: "${session.language}" is not an ISO 639-2 language code`))
  }
  for (const field of MERCHANT_URLS) {
    const url = session[field]
    if (url !== undefined && !isHttpUrl(url)) {
      problems.push({
        code: GATEWAY_CODES.invalidMerchantUrl,
        description: `paymentSession.${field}: "${url}" is not a valid http or https URL`,
      })
    }
  }
  const amount = BigInt(session.amount)
  if (amount > BigInt(order.amount)) {
    problems.push({
      code: GATEWAY_CODES.sessionAmountAboveOrder,
      description: `paymentSession.amount: ${session.amount} is above order.amount ${order.amount}`,
    })
  }
  if (amount === 0n && session.actionType !== "VERIFY") {
    problems.push(invalid("paymentSession.amount: must be above 0 (only actionType VERIFY allows 0)"))
  }
  const wallet = session.paymentService !== undefined && session.paymentService !== "CARDS"
  if (wallet && (session.recurrence?.action ?? "NO_RECURRING") !== "NO_RECURRING") {
    problems.push(
      invalid(
        `paymentSession.recurrence: the simulator saves cards typed in (paymentService CARDS), not ${session.paymentService}`,
      ),
    )
  }
  if (wallet && session.actionType === "VERIFY") {
    problems.push(invalid(`paymentSession.actionType: VERIFY checks a card typed in, not ${session.paymentService}`))
  }
  return problems
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

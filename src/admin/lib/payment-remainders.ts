/**
 * What staff may still capture or refund on a card payment, from the gateway's own figures
 * (the widget's view of the payment), and whether the widget offers the action at all:
 *
 * - capture: the gateway takes one capture per authorization, partial or total (a CANCEL
 *   of it allows a new one), so Capture is offered only while no capture holds money, for
 *   what is authorized and not captured;
 * - refund: what is captured and neither refunded nor being refunded (a PENDING refund
 *   already counts against the capture at the gateway).
 *
 * null: nothing left, or an amount the widget cannot do exact arithmetic on (a currency
 * without a known exponent), where offering the action could only mislead.
 */

import { isKnownCurrency } from "../../money/currencies"
import type { NexiCardPaymentView, NexiMoney, NexiTimelineOperation } from "../../staff/contract"
import { toMajor, toMinor } from "./minor-units"
import { undoneOperationIds } from "./timeline"

/** A capture that executed, or may still (PENDING), and was not cancelled. */
function holdsMoney(operation: NexiTimelineOperation, undone: ReadonlySet<string>): boolean {
  return operation.type === "CAPTURE" && (operation.result === "EXECUTED" || operation.result === "PENDING") && !undone.has(operation.operation_id)
}

/** `minuend` less every one of `subtrahends` (null: no amount), when positive; all in one currency. */
function positiveDifference(minuend: NexiMoney, subtrahends: ReadonlyArray<NexiMoney | null>): NexiMoney | null {
  const { currency } = minuend
  if (!isKnownCurrency(currency)) return null
  const amounts = [minuend, ...subtrahends.filter((money): money is NexiMoney => money !== null)]
  const minors = amounts.map((money) => (money.currency === currency ? toMinor(money.amount, currency) : undefined))
  if (minors.some((minor) => minor === undefined)) return null
  const [first, ...rest] = minors as bigint[]
  const left = rest.reduce((difference, minor) => difference - minor, first)
  return left > 0n ? { amount: toMajor(left, currency), currency } : null
}

export function captureRemainder(payment: NexiCardPaymentView): NexiMoney | null {
  const undone = undoneOperationIds(payment.operations)
  if (payment.operations.some((operation) => holdsMoney(operation, undone))) return null
  return positiveDifference(payment.authorized, [payment.captured])
}

export function refundRemainder(payment: NexiCardPaymentView): NexiMoney | null {
  const pending = payment.operations.filter((operation) => operation.type === "REFUND" && operation.result === "PENDING")
  return positiveDifference(payment.captured, [payment.refunded, ...pending.map((operation) => operation.amount)])
}

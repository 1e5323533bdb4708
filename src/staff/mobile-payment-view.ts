/**
 * What the admin shows of a mobile payment: the read model of its APM transaction
 * (src/core/mobile/mobile-transaction.ts) in the route's contract (contract.ts): the scheme, the
 * transaction, its state and every transition it went through. Pure. The service's amounts are
 * whole minor units ("hundredths"), as the provider sends them; an answer without the
 * transaction shows the session's own amount.
 */

import type { ExtendedEnvelope } from "../apm/schemas"
import type { ApmSessionData } from "../core/mobile/apm-session-data"
import { readMobileTransaction } from "../core/mobile/mobile-transaction"
import { minorToMajorString } from "../money/amount"
import type { PaymentIdentity } from "./card-payment-view"
import type { NexiMobilePaymentView, NexiMoney } from "./contract"

function money(minor: string, currency: string): NexiMoney {
  return { amount: minorToMajorString(minor, currency), currency }
}

export function mobilePaymentView(
  identity: PaymentIdentity,
  data: Partial<ApmSessionData>,
  envelope: ExtendedEnvelope,
): NexiMobilePaymentView {
  const transaction = readMobileTransaction(envelope)
  const held =
    transaction.amount ??
    (data.amount_minor && data.currency ? { minor: data.amount_minor, currency: data.currency } : undefined)
  return {
    kind: "mobile",
    ...identity,
    scheme: data.method ?? transaction.method ?? "unknown",
    transaction_id: transaction.transactionId ?? data.transaction_id ?? "",
    state: transaction.transactionState ?? null,
    amount: held ? money(held.minor, held.currency) : null,
    transitions: transaction.transitions.map((transition) => ({
      from: transition.from ?? null,
      to: transition.to ?? null,
      event: transition.event ?? null,
      time: transition.timeStamp ?? null,
    })),
  }
}

/**
 * What the admin shows of a mobile payment, read live from the alternative-payment service's
 * status answer: the scheme, the transaction, its state and every transition it went through.
 * Pure. The service's amounts are whole minor units ("hundredths"), as the provider sends them.
 */

import type { ExtendedEnvelope } from "../apm/schemas"
import { minorToMajorString } from "../money/amount"
import type { ApmSessionData } from "../providers/nexi/apm/session-data"
import type { PaymentIdentity } from "./card-payment-view"
import type { NexiMobilePaymentView, NexiMoney } from "./contract"

function money(minor: string | number, currency: string): NexiMoney {
  return { amount: minorToMajorString(minor, currency), currency }
}

export function mobilePaymentView(
  identity: PaymentIdentity,
  data: Partial<ApmSessionData>,
  envelope: ExtendedEnvelope,
): NexiMobilePaymentView {
  const transaction = envelope.response?.request?.transaction
  const held = transaction?.amount
  const amount = held ? money(held.totalAmount, held.currencyCode) : data.amount_minor && data.currency ? money(data.amount_minor, data.currency) : null
  return {
    kind: "mobile",
    ...identity,
    scheme: data.method ?? transaction?.method ?? "unknown",
    transaction_id: String(envelope.transactionId ?? transaction?.transactionId ?? data.transaction_id ?? ""),
    state: envelope.state ?? transaction?.state ?? null,
    amount,
    transitions: (transaction?.transitions ?? []).map((transition) => ({
      from: transition.from ?? null,
      to: transition.to ?? null,
      event: transition.event ?? null,
      time: transition.timeStamp ?? null,
    })),
  }
}

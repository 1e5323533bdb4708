/**
 * The one reading of a mobile (APM) transaction's status answer: where the payment stands, in
 * Medusa's words, the amount the service holds and the transaction's history. Pure; the mobile
 * providers, their follow-ups and the admin's view all read a transaction through
 * `readMobileTransaction`. Every transaction state is named in the table, so a new one shows up
 * as a type error rather than as a silently pending payment. A state or account state the
 * contract does not list reaches here set aside (`unrecognized`, src/apm/schemas.ts): it reads
 * as pending, never as paid, and is named in `reason`.
 */

import type { AccountState, ExtendedEnvelope, TransactionState, Transition } from "../../apm/schemas"
import type { PaymentStatus } from "../session-data"

export interface MobileTransaction {
  status: PaymentStatus
  /** The service's state, kept for the merchant and the storefront. */
  transactionState?: TransactionState
  accountState?: AccountState
  /** A state or account state outside the contract's lists, as sent ("state=SETTLED"). */
  unrecognized?: string
  /** Why the payment failed or was cancelled, in the scheme's words when it gave any. */
  reason?: string
  /** The transaction's id as the service gives it, when the answer carries one. */
  transactionId?: string
  /** What the transaction holds, in whole minor units ("hundredths"), when the answer carries it. */
  amount?: { minor: string; currency: string }
  /** The scheme, as the service names it. */
  method?: string
  /** Every state change the service recorded, in its order. */
  transitions: Transition[]
}

type StateReading = Omit<MobileTransaction, "transactionId" | "amount" | "method" | "transitions">

/**
 * - AUTHORIZED, RESERVED: the consumer approved; funds are held, not yet moved.
 * - FINALIZED, REPORTED: finalized (and reported to settlement): funds moved, unless the
 *   account state says ROLLBACK. The service captures on finalization, there is no capture call.
 * - INITIALIZED, PENDING: waiting for the consumer in their app.
 * - REJECTED, FAILED, TIMEDOUT, STALE: the attempt ended without payment.
 * - CANCELLED: reversed.
 */
const STATE_MEANING: Record<TransactionState, { status: PaymentStatus; reason?: string }> = {
  INITIALIZED: { status: "pending" },
  PENDING: { status: "pending" },
  AUTHORIZED: { status: "authorized" },
  RESERVED: { status: "authorized" },
  FINALIZED: { status: "captured" },
  REPORTED: { status: "captured" },
  REJECTED: { status: "error", reason: "The mobile payment scheme rejected the payment." },
  FAILED: { status: "error", reason: "The payment failed at the mobile payment scheme." },
  TIMEDOUT: { status: "error", reason: "The payment was not approved in the mobile payment app in time." },
  STALE: { status: "error", reason: "The payment request went stale before it was approved." },
  CANCELLED: { status: "canceled", reason: "The payment was cancelled." },
}

const ROLLED_BACK = "The mobile payment scheme rolled the payment back (account state ROLLBACK): no money was taken."

/** The scheme's own words about the latest change, when it gave any. */
export function schemeReason(envelope: ExtendedEnvelope): string | undefined {
  const info = envelope.naa2Ecr?.additionalInfo ?? envelope.response?.naa2Ecr?.additionalInfo
  const message = envelope.error?.message ?? envelope.response?.request?.transaction?.message
  return info?.trim() || message?.trim() || undefined
}

type Reported<T> = { known?: T; unrecognized?: string }

/**
 * The extended envelope's own member wins over the transaction's, whether known or not: an
 * unknown top-level state must not be overruled by an older known one inside.
 */
function reported<T>(
  field: "state" | "accountState",
  ...sources: Array<{ [key: string]: unknown; unrecognized?: Record<string, string> } | undefined>
): Reported<T> {
  for (const source of sources) {
    const known = source?.[field] as T | undefined
    if (known !== undefined) return { known }
    const unrecognized = source?.unrecognized?.[field]
    if (unrecognized !== undefined) return { unrecognized }
  }
  return {}
}

function unknownMeaning(field: string, value: string): StateReading {
  return {
    status: "pending",
    unrecognized: `${field}=${value}`,
    reason: `The mobile payment service reported ${field} "${value}", which this plugin does not know: the payment is treated as not paid until the service reports a known ${field}.`,
  }
}

export function readMobileTransaction(envelope: ExtendedEnvelope): MobileTransaction {
  const transaction = envelope.response?.request?.transaction
  const id = envelope.transactionId ?? transaction?.transactionId
  return {
    ...stateOf(envelope),
    ...(id === undefined ? {} : { transactionId: String(id) }),
    ...(transaction?.amount
      ? { amount: { minor: String(transaction.amount.totalAmount), currency: transaction.amount.currencyCode } }
      : {}),
    ...(transaction?.method ? { method: transaction.method } : {}),
    transitions: transaction?.transitions ?? [],
  }
}

function stateOf(envelope: ExtendedEnvelope): StateReading {
  const transaction = envelope.response?.request?.transaction
  const state = reported<TransactionState>("state", envelope, transaction)
  const account = reported<AccountState>("accountState", envelope, transaction)
  if (state.unrecognized !== undefined)
    return { ...unknownMeaning("state", state.unrecognized), accountState: account.known }
  const transactionState = state.known
  const accountState = account.known
  // No state at all is a transaction still being set up, as far as anyone can tell.
  const meaning = transactionState ? STATE_MEANING[transactionState] : { status: "pending" as const }
  const paid = meaning.status === "authorized" || meaning.status === "captured"
  // Whether money moved is exactly what an unknown account state leaves open.
  if (paid && account.unrecognized !== undefined)
    return { ...unknownMeaning("accountState", account.unrecognized), transactionState }
  if (paid && accountState === "ROLLBACK") {
    return { status: "canceled", transactionState, accountState, reason: ROLLED_BACK }
  }
  if (meaning.status === "error" || meaning.status === "canceled") {
    const said = schemeReason(envelope)
    const reason = said && meaning.reason ? `${meaning.reason} ${withFullStop(said)}` : meaning.reason
    return { status: meaning.status, transactionState, accountState, reason }
  }
  return { status: meaning.status, transactionState, accountState }
}

function withFullStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

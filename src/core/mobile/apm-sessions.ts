/**
 * A mobile payment's sessions and money as Medusa asks for them, for one scheme: a transaction
 * opened at the service and recorded in the ledger before Medusa hears of it, replaced when
 * the amount changes, read for its status, refunded once (refundOnce, at the end) and reversed. The
 * service sends no notifications: a pending session is completed by polling (mobile-sync.ts).
 * The mobile providers hand Medusa's calls here. Behaviour and choices: docs/apm-provider.md.
 */
import type {
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  RefundPaymentInput,
  RefundPaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
} from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { TransactionRejectedError } from "../../apm/errors"
import { LANGUAGE_KEY } from "../../i18n/page-language"
import type { MoneyWrite, NewAttempt, NewWrite, PaymentLedger } from "../../modules/nexi-ledger/types"
import { minorMoneyText, minorUnitsToSend, toPayableMinorUnits } from "../../money/amount"
import { readCartContext, withoutCartContext } from "../cart-context"
import { idempotencyUuid } from "../idempotency"
import { fromGateway, minorUnitsFor, toMedusaError } from "../medusa-errors"
import { recordedOperationIds } from "../medusa-records"
import { claimOrphans, freeClaims, totalMinor } from "../send-once"
import {
  buildPaymentRequest,
  consumerName,
  followUpRequest,
  type OriginalPayment,
  type RefundTotals,
  refundsBefore,
} from "./apm-requests"
import { type ApmSessionData, readApmSessionData, readConsumerId, transactionFields } from "./apm-session-data"
import type { ApmTransactions, ApmTransactionsDeps } from "./apm-transactions"
import type { ApmWrites } from "./apm-writes"
import { type MobileTransaction, readMobileTransaction } from "./mobile-transaction"
import { buildPurchase, requireHundredthsCurrency } from "./purchase-amounts"

export class ApmSessions {
  private readonly deps: ApmTransactionsDeps

  /** The scheme's transactions, with its options, ledger, Medusa's records and the provider's key. */
  constructor(private readonly transactions: ApmTransactions) {
    this.deps = transactions.deps
  }

  async initiate(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    const data = await this.startPayment(sessionId, input)
    return { id: data.transaction_id ?? sessionId, data, status: data.status }
  }

  /**
   * A transaction cannot change: a new amount or currency needs a new one, and the old one,
   * if still waiting in the shopper's app, is reversed so it cannot be approved. Anything
   * else (Medusa marking the session failed) keeps the transaction. Another consumer id is a
   * new session: the store API creates one for every POST .../payment-sessions.
   */
  async update(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const current = readApmSessionData(input.data)
    const currency = input.currency_code.toUpperCase()
    const amountMinor = minorUnitsFor(input.amount, currency, "update the payment")
    const unchanged = current.amount_minor === amountMinor && current.currency === currency
    if (current.transaction_id && unchanged) return { data: withoutCartContext(input.data) }
    await this.transactions.reverseIfStillPending(current)
    const sessionId = String(current.session_id ?? input.context?.idempotency_key ?? "")
    const data = await this.startPayment(sessionId, input, current.transaction_id)
    // The replaced transaction is read again now: if the shopper approved it after all, it is released.
    await this.inLedger("update the payment", (ledger) =>
      ledger.supersedeAttempts(sessionId, data.transaction_id, "Replaced by a new payment of the same session"),
    )
    return { data, status: data.status }
  }

  /** A session replaced by another one: its transaction must not stay approvable in the app. */
  async delete(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = readApmSessionData(input.data)
    await this.transactions.reverseIfStillPending(data)
    const sessionId = data.session_id
    if (sessionId) {
      await this.inLedger("delete the payment", (ledger) =>
        ledger.supersedeAttempts(sessionId, undefined, "Its payment session was deleted"),
      )
    }
    return { data: input.data }
  }

  /**
   * The service has no capture: a payment is captured when it is finalized, and
   * authorizePayment then says `captured`, so Medusa records the capture itself and does not
   * call this. Called anyway (an admin capturing an AUTHORIZED payment), it succeeds only
   * once the payment is finalized.
   */
  async capture(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { state, data } = await this.read(input.data, "capture the payment")
    if (state.status === "captured") return { data }
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not capture the payment: ${this.deps.method} captures automatically when the payment is finalized, and this payment is ${state.transactionState ?? "not started"}, not finalized yet. Wait for the scheme to finalize it.`,
    )
  }

  /**
   * The refund is made once at the service however Medusa retries it (refundOnce, below). A
   * refund the scheme accepts but has not settled yet is followed by the reconciliation job;
   * Medusa records it now, since its call cannot be held open until the scheme decides.
   */
  async refund(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const action = "refund the payment"
    const data = readApmSessionData(input.data)
    const refundId = input.context?.idempotency_key
    return fromGateway(action, async () => {
      if (!refundId)
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `Could not ${action}: Medusa passed no refund id to key it by.`,
        )
      // A refund recorded from outside Medusa (the service's back office) is already done there.
      if (recordedOperationIds(await this.deps.records.refundMetadata(refundId)).length) return { data: input.data }

      const writes = this.transactions.writes(action)
      const original = this.transactions.originalOf(data, action)
      const refunded: RefundTotals = {
        totalMinor: BigInt(data.refunded_minor ?? "0"),
        vatMinor: BigInt(data.refunded_vat_minor ?? "0"),
      }
      const refundMinor = minorUnitsToSend({
        amount: input.amount as never,
        before: await this.deps.records.refundedBefore(refundId),
        currencyCode: original.amount.currencyCode,
        leftMinor: BigInt(original.amount.totalAmount) - refunded.totalMinor,
      })
      const done = await refundOnce({ writes, original, refundId, refundMinor, refunded })
      return {
        data: {
          ...input.data,
          refunded_minor: (refunded.totalMinor + refundMinor).toString(),
          refunded_vat_minor: (refunded.vatMinor + done.vatMinor).toString(),
          refund_transaction_ids: [...(data.refund_transaction_ids ?? []), ...done.transactionIds],
        },
      }
    })
  }

  /**
   * Order cancel, or Medusa undoing a payment it could not record: a reversal of the whole
   * payment, pending or finalized. One that never got paid, or is already cancelled, needs none.
   */
  async cancel(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readApmSessionData(input.data)
    return fromGateway("cancel the payment", async () => {
      if (!data.transaction_id) return { data: { ...input.data, status: "canceled" } }
      const state = await this.transactions.readTransaction(data)
      if (state.status === "error" || state.status === "canceled")
        return { data: { ...input.data, status: "canceled" } }
      const reversalId = await this.transactions.reverse(data)
      return { data: { ...input.data, status: "canceled", state: "CANCELLED", reversal_transaction_id: reversalId } }
    })
  }

  /** @param replacing the transaction a new amount replaces: a new payment, even for an amount the session had before */
  private async startPayment(
    sessionId: string,
    input: InitiatePaymentInput | UpdatePaymentInput,
    replacing?: string,
  ): Promise<ApmSessionData> {
    const { apm } = this.transactions.configured("start the payment", { starting: true })
    const consumerId = readConsumerId(input.data)
    const currency = input.currency_code.toUpperCase()
    const cart = readCartContext(input.data)
    let amountMinor: string
    let purchase: ReturnType<typeof buildPurchase>
    try {
      requireHundredthsCurrency(currency, this.deps.method)
      amountMinor = toPayableMinorUnits(input.amount as never, currency)
      purchase = buildPurchase({ totalMinor: amountMinor, currencyCode: currency, cart })
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
    const consumer = { consumerId, name: consumerName(cart, input.context?.customer) }
    const request = buildPaymentRequest({
      method: this.deps.method,
      merchantId: apm.merchantId,
      sessionId,
      consumer,
      purchase,
      cart,
      requestedLanguage: input.data?.[LANGUAGE_KEY],
    })
    const base = {
      ...withoutCartContext(input.data),
      session_id: sessionId,
      method: this.deps.method,
      consumer_id: consumerId,
      consumer_name: consumer.name,
      amount_minor: amountMinor,
      vat_minor: String(purchase.purchaseAmount.vatAmount),
      currency,
      // Fields of an earlier attempt of this session must not survive into this one.
      transaction_id: undefined,
      state: undefined,
      account_state: undefined,
      next_link: undefined,
      approval_url: undefined,
      reason: undefined,
      refunded_minor: undefined,
      refunded_vat_minor: undefined,
      refund_transaction_ids: undefined,
      reversal_transaction_id: undefined,
    }
    // The reconciliation job reads the transaction first after the shopper had time to approve.
    const pollAfter = new Date(Date.now() + apm.pollIntervalSeconds * 1000)
    let data: ApmSessionData
    const starts = this.transactions.starts("start the payment")
    try {
      // The same session sending the same request in place of the same transaction is a retry;
      // anything that changed is a new payment (an amount the session had before included).
      const replaces = replacing ? `:replacing:${replacing}` : ""
      const key = idempotencyUuid(`${sessionId}:payment${replaces}:${JSON.stringify(request)}`)
      const envelope = await starts.send({ sessionId, key, request, amountMinor, currency })
      data = { ...base, ...transactionFields(envelope), status: "pending", poll_after: pollAfter.toISOString() }
    } catch (error) {
      // 201 "created but rejected": a decline. The session is kept, showing why, so the
      // storefront can tell the shopper and let them try again with a new session.
      if (!(error instanceof TransactionRejectedError)) throw toMedusaError(error, "start the payment")
      const state = readMobileTransaction({
        ...error.envelope,
        state: error.envelope.response?.request?.transaction?.state ?? "REJECTED",
      })
      const reason = state.status === "error" || state.status === "canceled" ? state.reason : undefined
      data = {
        ...base,
        ...transactionFields(error.envelope),
        status: "error",
        reason: reason ?? "The mobile payment scheme rejected the payment.",
      }
    }
    if (data.transaction_id) {
      const attempt = { session_id: sessionId, cart_id: cart?.cart_id ?? null, amount_minor: amountMinor, currency }
      await this.recordAttempt(data.transaction_id, attempt, data.status === "error", pollAfter)
    }
    return data
  }

  /**
   * Every transaction opened is recorded before Medusa hears of it. A failure throws: Medusa
   * then keeps no session pointing at it and the storefront never shows its approval link. It
   * is not reversed here, as that reversal would be a money write the same failing ledger could
   * not record either: the job finds the start (its write is recorded, executed) and watches
   * the transaction, which it reverses (payment-start.ts). A start the job found first (its
   * answer was lost, and the shopper's retry under the same key replayed it) was opened as no
   * session's: it is this session's again, so the sync watches it instead of reversing it.
   */
  private async recordAttempt(
    transactionId: string,
    attempt: Pick<NewAttempt, "session_id" | "cart_id" | "amount_minor" | "currency">,
    declined: boolean,
    pollAfter: Date,
  ): Promise<void> {
    // A declined transaction can never be paid: nothing to watch.
    const watch = declined ? { state: "closed" as const, next_check_at: null } : { next_check_at: pollAfter }
    await this.inLedger("start the payment", async (ledger) => {
      const opened = await ledger.openAttempt({
        provider_identifier: this.deps.providerKey,
        gateway_ref: transactionId,
        ...attempt,
        ...watch,
      })
      if (opened.state === "superseded" && opened.session_id === attempt.session_id)
        await ledger.updateAttempt(transactionId, { state: "open", ...watch })
    })
  }

  /** A ledger change that is not a money write (those go through sendOnce); a failure names the ledger. */
  private async inLedger<T>(action: string, change: (ledger: PaymentLedger) => Promise<T>): Promise<T> {
    const ledger = this.deps.ledger(action)
    try {
      return await change(ledger)
    } catch (error) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}: the payment could not be recorded in the Nexi ledger (${(error as Error).message}).`,
      )
    }
  }

  /** Reads the transaction and folds its state into the session data. */
  async read(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: MobileTransaction; data: Record<string, unknown> }> {
    const data = readApmSessionData(raw)
    return fromGateway(action, async () => {
      this.transactions.require(data.transaction_id, "transaction_id", action)
      const state = await this.transactions.readTransaction(data)
      return {
        state,
        data: {
          ...raw,
          status: state.status,
          state: state.transactionState,
          account_state: state.accountState,
          reason: state.reason,
          // The approval link is dead once the shopper decided.
          approval_url: state.status === "pending" ? data.approval_url : undefined,
        },
      }
    })
  }
}

/*
 * One Medusa refund of a mobile payment, made once at the service whatever happens on the
 * way. When a refund's answer is lost, Medusa rolls its refund back and the merchant tries
 * again, which is a new Medusa refund with a new id and so a new idempotency key. The first
 * refund then lives on in the ledger: this refund first learns its outcome and matches it to
 * its Medusa row by id (core/send-once.ts); only if that row is gone does it take the
 * refund over (claims it) and send only what remains.
 */
const REFUND_ACTION = "refund the payment"

interface RefundOrder {
  /** The payment's writes, with the ledger and Medusa's refund rows they are matched to. */
  writes: ApmWrites
  original: OriginalPayment
  /** Medusa's refund id: the key of this refund, and the claimant of the refunds it takes over. */
  refundId: string
  refundMinor: bigint
  /** What the payment data counts as refunded already. */
  refunded: RefundTotals
}

interface RefundDone {
  /** The service's refund transactions that make up this refund. */
  transactionIds: string[]
  vatMinor: bigint
}

export async function refundOnce(order: RefundOrder): Promise<RefundDone> {
  const { original, refundId, refundMinor } = order
  const key = idempotencyUuid(refundId)
  const writes = await settleEarlier(order, key)
  const { before, vatOf } = refundsBefore(writes, key, original.amount, order.refunded)
  // Refunds the service made whose Medusa refund is gone, taken over up to this refund's amount.
  const { ledger, rows } = order.writes.deps
  const claimed = await claimOrphans({ ledger, rows, action: REFUND_ACTION }, writes, {
    kind: "apm_refund",
    amountMinor: refundMinor,
    claimant: refundId,
    ownKey: key,
  })
  const claimedMinor = totalMinor(claimed)
  const done: RefundDone = {
    transactionIds: claimed.flatMap((write) => (write.gateway_operation_id ? [write.gateway_operation_id] : [])),
    vatMinor: claimed.reduce((sum, write) => sum + (vatOf.get(write.id) ?? 0n), 0n),
  }
  const remainder = refundMinor - claimedMinor
  if (remainder <= 0n) return done
  const request = followUpRequest(order.writes.sender, original, { refundMinor: remainder, before })
  const currency = original.amount.currencyCode
  const write = {
    kind: "apm_refund" as const,
    idempotency_key: key,
    gateway_ref: original.transactionId,
    target_ref: original.transactionId,
    amount_minor: remainder.toString(),
    currency,
    medusa_ref: refundId,
  }
  try {
    const label = `refund of ${minorMoneyText(remainder, currency)}`
    const transactionId = await order.writes.send({ write, request, label, action: REFUND_ACTION })
    await holdOwn(order, write)
    return {
      transactionIds: [...done.transactionIds, transactionId],
      vatMinor: done.vatMinor + BigInt(request.purchaseAmount.vatAmount),
    }
  } catch (error) {
    await freeClaims(ledger, claimed, REFUND_ACTION)
    throw error
  }
}

/** The transaction's writes, none of them (but this refund's own) of unknown outcome or on its way. */
async function settleEarlier(order: RefundOrder, key: string): Promise<MoneyWrite[]> {
  let writes: MoneyWrite[]
  try {
    const requestOf = order.writes.requestOf(order.original, order.refunded)
    writes = await order.writes.settleUnsettled(order.original.transactionId, requestOf, {
      exceptKey: key,
      action: REFUND_ACTION,
    })
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${REFUND_ACTION}: an earlier refund or reversal of this payment has an unknown outcome, and it could not be settled now (${(error as Error).message}). Nothing was sent; try again in a few minutes.`,
    )
  }
  if (writes.some((write) => write.idempotency_key !== key && order.writes.isInFlight(write))) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not ${REFUND_ACTION}: another refund or reversal of this payment is being sent right now. Nothing was sent; try again in a minute.`,
    )
  }
  return writes
}

/**
 * The refund's own write, when an earlier try of this same refund sent it and the job
 * settled it since, is executed but unclaimed (or claimed by a later refund that took it
 * over). Unclaimed, this refund claims it, or a later one would count it a second time;
 * held by another, Medusa already records that money there and must not record it again.
 */
async function holdOwn(order: RefundOrder, write: NewWrite): Promise<void> {
  const { ledger } = order.writes.deps
  const own = await ledger.requestWrite(write)
  if (own.claimed_by === order.refundId) return
  if (own.claimed_by === null && (await ledger.claimWrite(own.id, order.refundId))) return
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not ${REFUND_ACTION}: its refund transaction ${own.gateway_operation_id} is already recorded in Medusa as part of another refund. Nothing more was sent.`,
  )
}

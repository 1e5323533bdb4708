/**
 * The mobile payment providers (`pp_nexi-apm-<scheme>_nexi`): Medusa's payment lifecycle on
 * the alternative-payment transaction service (docs/contract/apm.md). This base class holds the whole
 * lifecycle; scheme-providers.ts has one tiny subclass per scheme. The shopper approves in
 * their app and the service sends no notifications, so a pending session is completed by
 * polling: the status route and the reconciliation job sync it (src/core/mobile-sync.ts)
 * through the scheme's transactions (apm-transactions.ts). Every transaction it opens, refund
 * and reversal it sends goes through the plugin's ledger (docs/ledger.md), so a payment made after its session was
 * replaced, or a refund whose answer was lost, is found and settled. Behaviour and choices:
 * docs/apm-provider.md.
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
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { TransactionRejectedError } from "../../../apm/errors"
import type { ApmMethod } from "../../../apm/schemas"
import { buildPaymentRequest, consumerName } from "../../../core/apm-payment-request"
import {
  type ApmSessionData,
  readApmSessionData,
  readConsumerId,
  transactionFields,
} from "../../../core/apm-session-data"
import { ApmTransactions } from "../../../core/apm-transactions"
import { readCartContext, withoutCartContext } from "../../../core/cart-context"
import type { RefundTotals } from "../../../core/follow-up-requests"
import { idempotencyUuid } from "../../../core/idempotency"
import { toMedusaError } from "../../../core/medusa-errors"
import { type MobileTransaction, readMobileTransaction } from "../../../core/mobile-transaction"
import { buildPurchase, requireHundredthsCurrency } from "../../../core/purchase-amounts"
import { recordedOperationIds } from "../../../core/recorded-refunds"
import type { PaymentLedger } from "../../../modules/nexi-ledger/types"
import { minorUnitsToSend, toPayableMinorUnits } from "../../../money/amount"
import { NexiProviderBase, SESSION_STATUS } from "../shared/provider-base"

export abstract class NexiApmProviderService extends NexiProviderBase<MobileTransaction> {
  /** The scheme this provider pays with (docs/contract/apm.md `method`). */
  protected abstract readonly method: ApmMethod

  protected get providerLabel(): string {
    return `Nexi ${this.method}`
  }

  /**
   * The scheme's transactions, with this provider's options and ledger. Built at first use: the
   * scheme subclass sets `method` after this base class's constructor has run.
   */
  private get transactions(): ApmTransactions {
    this.transactions_ ??= new ApmTransactions({
      options: this.options_,
      method: this.method,
      ledger: (action) => this.ledger(action),
      rows: this.records,
      logger: this.logger_,
    })
    return this.transactions_
  }

  private transactions_?: ApmTransactions

  /**
   * Medusa's webhook route for a mobile scheme: the service sends no notifications, so nothing
   * arrives here but noise. The storefront's status poll and the job sync mobile payments
   * directly (src/core/mobile-sync.ts).
   */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    this.logger_?.warn(`nexi: ${this.method} has no notifications; ignored a webhook call`)
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    const data = await this.startPayment(sessionId, input)
    return { id: data.transaction_id ?? sessionId, data, status: SESSION_STATUS[data.status] }
  }

  /**
   * A transaction cannot change: a new amount or currency needs a new one, and the old one,
   * if still waiting in the shopper's app, is reversed so it cannot be approved. Anything
   * else (Medusa marking the session failed) keeps the transaction. Another consumer id is a
   * new session: the store API creates one for every POST .../payment-sessions.
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const current = readApmSessionData(input.data)
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "update the payment")
    const unchanged = current.amount_minor === amountMinor && current.currency === currency
    if (current.transaction_id && unchanged) return { data: withoutCartContext(input.data) }
    await this.transactions.reverseIfStillPending(current)
    const sessionId = String(current.session_id ?? input.context?.idempotency_key ?? "")
    const data = await this.startPayment(sessionId, input)
    // The replaced transaction is read again now: if the shopper approved it after all, it is released.
    await this.inLedger("update the payment", (ledger) =>
      ledger.supersedeAttempts(sessionId, data.transaction_id, "Replaced by a new payment of the same session"),
    )
    return { data, status: SESSION_STATUS[data.status] }
  }

  /** A session replaced by another one: its transaction must not stay approvable in the app. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
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
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { state, data } = await this.readState(input.data, "capture the payment")
    if (state.status === "captured") return { data }
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not capture the payment: ${this.method} captures automatically when the payment is finalized, and this payment is ${state.transactionState ?? "not started"}, not finalized yet. Wait for the scheme to finalize it.`,
    )
  }

  /**
   * The refund is made once at the service however Medusa retries it (apm-refund.ts). A
   * refund the scheme accepts but has not settled yet is followed by the reconciliation job;
   * Medusa records it now, since its call cannot be held open until the scheme decides.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const action = "refund the payment"
    const data = readApmSessionData(input.data)
    const refundId = input.context?.idempotency_key
    try {
      if (!refundId)
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `Could not ${action}: Medusa passed no refund id to key it by.`,
        )
      // A refund recorded from outside Medusa (the service's back office) is already done there.
      if (recordedOperationIds(await this.records.refundMetadata(refundId)).length) return { data: input.data }

      const followUps = this.transactions.followUps(action)
      const original = this.transactions.originalOf(data, action)
      const refunded: RefundTotals = {
        totalMinor: BigInt(data.refunded_minor ?? "0"),
        vatMinor: BigInt(data.refunded_vat_minor ?? "0"),
      }
      const refundMinor = minorUnitsToSend({
        amount: input.amount as never,
        before: await this.records.refundedBefore(refundId),
        currencyCode: original.amount.currencyCode,
        leftMinor: BigInt(original.amount.totalAmount) - refunded.totalMinor,
      })
      const done = await followUps.refund({ original, refundId, refundMinor, refunded })
      return {
        data: {
          ...input.data,
          refunded_minor: (refunded.totalMinor + refundMinor).toString(),
          refunded_vat_minor: (refunded.vatMinor + done.vatMinor).toString(),
          refund_transaction_ids: [...(data.refund_transaction_ids ?? []), ...done.transactionIds],
        },
      }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  /**
   * Order cancel, or Medusa undoing a payment it could not record: a reversal of the whole
   * payment, pending or finalized. One that never got paid, or is already cancelled, needs none.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readApmSessionData(input.data)
    try {
      if (!data.transaction_id) return { data: { ...input.data, status: "canceled" } }
      const state = await this.transactions.readTransaction(data)
      if (state.status === "error" || state.status === "canceled")
        return { data: { ...input.data, status: "canceled" } }
      const reversalId = await this.transactions.reverse(data)
      return { data: { ...input.data, status: "canceled", state: "CANCELLED", reversal_transaction_id: reversalId } }
    } catch (error) {
      throw toMedusaError(error, "cancel the payment")
    }
  }

  private async startPayment(
    sessionId: string,
    input: InitiatePaymentInput | UpdatePaymentInput,
  ): Promise<ApmSessionData> {
    const { apm, client } = this.transactions.configured("start the payment", { starting: true })
    const consumerId = readConsumerId(input.data)
    const currency = input.currency_code.toUpperCase()
    let amountMinor: string
    try {
      requireHundredthsCurrency(currency, this.method)
      amountMinor = toPayableMinorUnits(input.amount as never, currency)
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
    const cart = readCartContext(input.data)
    const consumer = { consumerId, name: consumerName(cart, input.context?.customer) }
    let purchase: ReturnType<typeof buildPurchase>
    try {
      purchase = buildPurchase({ totalMinor: amountMinor, currencyCode: currency, cart })
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
    const request = buildPaymentRequest({
      method: this.method,
      merchantId: apm.merchantId,
      sessionId,
      consumer,
      purchase,
      cart,
    })
    const base = {
      ...withoutCartContext(input.data),
      session_id: sessionId,
      method: this.method,
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
    try {
      // The same session sending the same request is a retry; anything that changed is a new payment.
      const key = idempotencyUuid(`${sessionId}:payment:${JSON.stringify(request)}`)
      const envelope = await client.initializeWithIdempotency("payment", request, key)
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
    if (data.transaction_id) await this.recordAttempt(data, cart?.cart_id ?? null, pollAfter)
    return data
  }

  /**
   * Every transaction opened is recorded before Medusa hears of it. One the ledger does not
   * know could never be found again if the shopper paid it after its session was replaced,
   * so a failure throws: Medusa then keeps no session pointing at it and the storefront never
   * shows its approval link. The transaction itself stays at the service, pending until the
   * scheme times it out; it is not reversed here, as that reversal would be a money write the
   * same failing ledger could not record either.
   */
  private async recordAttempt(data: ApmSessionData, cartId: string | null, pollAfter: Date): Promise<void> {
    const declined = data.status === "error"
    await this.inLedger("start the payment", (ledger) =>
      ledger.openAttempt({
        provider_identifier: this.providerKey(),
        gateway_ref: this.require(data.transaction_id, "transaction_id", "start the payment"),
        session_id: data.session_id,
        cart_id: cartId,
        amount_minor: data.amount_minor,
        currency: data.currency,
        // A declined transaction can never be paid: nothing to watch.
        ...(declined ? { state: "closed" as const, next_check_at: null } : { next_check_at: pollAfter }),
      }),
    )
  }

  /** A ledger change that is not a money write (those go through sendOnce); a failure names the ledger. */
  private async inLedger<T>(action: string, change: (ledger: PaymentLedger) => Promise<T>): Promise<T> {
    const ledger = this.ledger(action)
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
  protected async readState(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: MobileTransaction; data: Record<string, unknown> }> {
    const data = readApmSessionData(raw)
    try {
      this.require(data.transaction_id, "transaction_id", action)
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
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }
}

/**
 * The mobile payment providers (`pp_nexi-apm-<scheme>_nexi`): Medusa's payment lifecycle on
 * the alternative-payment transaction service (docs/contract/apm.md). This base class holds the whole
 * lifecycle; scheme-providers.ts has one tiny subclass per scheme. The shopper approves in
 * their app and the service sends no notifications, so a pending session is completed by
 * polling: the status route and the reconciliation job send in-process reconcile requests
 * through getWebhookActionAndData. Every transaction it opens, refund and reversal it sends
 * goes through the plugin's ledger (docs/ledger.md), so a payment made after its session was
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
import { MathBN, MedusaError, PaymentActions } from "@medusajs/framework/utils"
import type { ApmClient } from "../../../apm/apm-client"
import { TransactionRejectedError } from "../../../apm/errors"
import type { ApmMethod } from "../../../apm/schemas"
import { NotFoundError } from "../../../http/errors"
import type { PaymentLedger } from "../../../modules/nexi-ledger/types"
import { minorToMajorString, minorUnitsToSend, toPayableMinorUnits } from "../../../money/amount"
import { clientsFor } from "../clients"
import type { ApmOptions } from "../options"
import { watchAfterRead } from "../../../core/attempt-watch"
import { readCartContext, withoutCartContext } from "../shared/cart-context"
import { idempotencyUuid } from "../shared/idempotency"
import { toMedusaError } from "../shared/medusa-errors"
import type { SessionRecord } from "../../../core/payment-records"
import { NexiProviderBase, SESSION_STATUS, WEBHOOK_ACTION } from "../shared/provider-base"
import { readReconcileRequest } from "../shared/reconcile-request"
import { recordedOperationIds } from "../../../core/recorded-refunds"
import type { NexiWebhookData } from "../shared/webhook-data"
import type { RequestOfWrite } from "./apm-writes"
import type { OriginalPayment, RefundTotals } from "./follow-up-requests"
import { FollowUps } from "./follow-ups"
import { buildPaymentRequest, consumerName } from "./payment-request"
import { buildPurchase, requireHundredthsCurrency } from "./purchase-amounts"
import { watchOrRelease } from "./release"
import { type ApmSessionData, readApmSessionData, readConsumerId, transactionFields } from "./session-data"
import { type ApmPaymentState, readApmPaymentState } from "./transaction-state"

type Data = Partial<ApmSessionData>

const RECONCILE = "reconcile the payment"
const NOT_SUPPORTED: WebhookActionResult = { action: PaymentActions.NOT_SUPPORTED }

export abstract class NexiApmProviderService extends NexiProviderBase<ApmPaymentState> {
  /** The scheme this provider pays with (docs/contract/apm.md `method`). */
  protected abstract readonly method: ApmMethod

  protected get providerLabel(): string {
    return `Nexi ${this.method}`
  }

  /**
   * The configured service, or a clear error: without `apm` options every mobile payment
   * provider refuses (the card provider still works), and a scheme the store did not list
   * in `apm.methods` refuses to start payments.
   */
  private configured(action: string, { starting }: { starting: boolean }): { apm: ApmOptions; client: ApmClient } {
    const apm = this.options_.apm
    const client = clientsFor(this.options_, this.logger_).apm
    if (!apm || !client) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not ${action}: mobile payments are not configured. Add the \`apm\` options (consumerKey, consumerSecret, merchantId, environment) to the Nexi payment provider in medusa-config.`,
      )
    }
    if (starting && !apm.methods.includes(this.method)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not ${action}: the scheme ${this.method} is not enabled. Add it to the Nexi provider option apm.methods (now: ${apm.methods.join(", ")}).`,
      )
    }
    return { apm, client }
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
    await this.reverseIfStillPending(current)
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
    await this.reverseIfStillPending(data)
    const sessionId = data.session_id
    if (sessionId) {
      await this.inLedger("delete the payment", (ledger) => ledger.supersedeAttempts(sessionId, undefined, "Its payment session was deleted"))
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
      if (!refundId) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Could not ${action}: Medusa passed no refund id to key it by.`)
      // A refund recorded from outside Medusa (the service's back office) is already done there.
      if (recordedOperationIds(await this.records.refundMetadata(refundId)).length) return { data: input.data }

      const followUps = this.followUps(action)
      const original = this.originalOf(data, action)
      const refunded: RefundTotals = { totalMinor: BigInt(data.refunded_minor ?? "0"), vatMinor: BigInt(data.refunded_vat_minor ?? "0") }
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
      const state = await this.readTransaction(data)
      if (state.status === "error" || state.status === "canceled") return { data: { ...input.data, status: "canceled" } }
      const reversalId = await this.reverse(data)
      return { data: { ...input.data, status: "canceled", state: "CANCELLED", reversal_transaction_id: reversalId } }
    } catch (error) {
      throw toMedusaError(error, "cancel the payment")
    }
  }

  /**
   * The service sends no notifications: only the plugin's in-process reconcile requests are
   * answered (a session's payment from the status route and the job; a transaction of the
   * ledger from the job); anything else changes nothing.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const subject = readReconcileRequest(payload)
    if (!subject) {
      this.logger_?.warn(`nexi: ${this.method} has no notifications; ignored a webhook call`)
      return NOT_SUPPORTED
    }
    if (subject.gatewayRef !== undefined) return this.reconcileTransaction(subject.gatewayRef)
    const session = await this.records.session(subject.sessionId)
    const data = readApmSessionData(session?.data)
    if (!session || !data.transaction_id) return NOT_SUPPORTED
    return this.answerForSession(session, data)
  }

  /** The action for the session's current transaction, whose watch in the ledger moves on with what was read. */
  private async answerForSession(session: SessionRecord, data: Data): Promise<WebhookActionResult> {
    const transactionId = this.require(data.transaction_id, "transaction_id", RECONCILE)
    let state: ApmPaymentState
    try {
      state = await this.readTransaction(data)
    } catch (error) {
      // 404: not a transaction of these credentials; nothing to do. Anything else is retried.
      if (error instanceof NotFoundError) return NOT_SUPPORTED
      throw error
    }
    if (state.status === "pending" && this.pollTimedOut(session)) state = await this.timeOut(data, state)
    await this.inLedger(RECONCILE, async (ledger) => {
      const attempt = await ledger.findAttempt(transactionId)
      if (attempt) await ledger.updateAttempt(transactionId, watchAfterRead(attempt, state.status, new Date(), state.reason))
    })
    const result: NexiWebhookData = {
      session_id: session.id,
      amount: MathBN.convert(minorToMajorString(data.amount_minor ?? "0", data.currency ?? "EUR")),
      ...(state.reason ? { nexi_reason: state.reason } : {}),
    }
    return { action: WEBHOOK_ACTION[state.status], data: result as WebhookActionResult["data"] }
  }

  /**
   * A transaction of the ledger (the reconciliation job): its refunds and reversals are
   * followed and settled first, then the transaction itself. While its live session owns it,
   * it is answered as that session's payment. Once no session owns it (replaced or deleted),
   * it is watched until it ends, and released (reversed) if the shopper paid it after all.
   */
  private async reconcileTransaction(gatewayRef: string): Promise<WebhookActionResult> {
    const followUps = this.followUps(RECONCILE)
    const { client, ledger } = followUps.deps
    const attempt = await ledger.findAttempt(gatewayRef)
    if (attempt && attempt.provider_identifier !== this.providerKey()) return NOT_SUPPORTED
    // A session that cannot be read throws here: read as deleted, a paid payment would be reversed.
    const session = attempt?.session_id ? await this.records.session(attempt.session_id) : undefined
    const data = readApmSessionData(session?.data)
    const owner = session && data.transaction_id === gatewayRef ? session : undefined
    await followUps.writes.followAll(gatewayRef)
    const requestOf: RequestOfWrite = owner
      ? followUps.requestOf(this.originalOf(data, RECONCILE))
      : async (write, writes) => {
          const original = followUps.heldAtService(gatewayRef, await client.getTransaction(gatewayRef), RECONCILE)
          return followUps.requestOf(original)(write, writes)
        }
    await followUps.writes.settleUnsettled(gatewayRef, requestOf)
    // Paid, closed and released attempts are done: only their writes were to settle.
    if (!attempt || (attempt.state !== "open" && attempt.state !== "superseded")) return NOT_SUPPORTED
    if (owner) return this.answerForSession(owner, data)
    await watchOrRelease(followUps, attempt)
    return NOT_SUPPORTED
  }

  private pollTimedOut(session: SessionRecord): boolean {
    const created = session.created_at ? new Date(session.created_at).getTime() : Number.NaN
    const limitMs = (this.options_.apm?.pollTimeoutSeconds ?? Number.POSITIVE_INFINITY) * 1000
    return Number.isFinite(created) && Date.now() - created > limitMs
  }

  /**
   * Still pending after apm.pollTimeoutSeconds: the payment is reversed so the shopper can no
   * longer approve it, then reported failed. Without a terminalReference (needed for the
   * reversal) it stays pending until the scheme times it out itself.
   */
  private async timeOut(data: Data, state: ApmPaymentState): Promise<ApmPaymentState> {
    if (!this.options_.apm?.terminalReference) return state
    try {
      await this.reverse(data)
    } catch (error) {
      this.logger_?.warn(`nexi: could not reverse timed-out ${this.method} transaction ${data.transaction_id}: ${(error as Error).message}`)
      return state
    }
    const seconds = this.options_.apm.pollTimeoutSeconds
    return { ...state, status: "error", reason: `The payment was not approved in the mobile payment app within ${seconds} seconds.` }
  }

  private async startPayment(sessionId: string, input: InitiatePaymentInput | UpdatePaymentInput): Promise<ApmSessionData> {
    const { apm, client } = this.configured("start the payment", { starting: true })
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
    const request = buildPaymentRequest({ method: this.method, merchantId: apm.merchantId, sessionId, consumer, purchase, cart })
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
      const state = readApmPaymentState({ ...error.envelope, state: error.envelope.response?.request?.transaction?.state ?? "REJECTED" })
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

  private followUps(action: string): FollowUps {
    const { apm, client } = this.configured(action, { starting: false })
    return new FollowUps({ apm, client, ledger: this.ledger(action), method: this.method, logger: this.logger_ })
  }

  /** The payment as it was sent: refunds and reversals go back the same way. */
  private originalOf(data: Data, action: string): OriginalPayment {
    const total = Number(this.require(data.amount_minor, "amount_minor", action))
    const vat = Number(data.vat_minor ?? "0")
    return {
      transactionId: this.require(data.transaction_id, "transaction_id", action),
      amount: { currencyCode: this.require(data.currency, "currency", action), totalAmount: total, vatAmount: vat, nominalAmount: total - vat },
      consumer: { consumerId: this.require(data.consumer_id, "consumer_id", action), name: data.consumer_name || "Customer" },
    }
  }

  /** Reverses the whole payment; the reversal's transaction id. */
  private reverse(data: Data, action = "cancel the payment"): Promise<string> {
    const original = this.originalOf(data, action)
    return this.followUps(action).reverse(original, {
      origin: "medusa",
      key: `${original.transactionId}:reversal`,
      medusaRef: data.session_id ?? null,
      action,
    })
  }

  /** Best effort: a failure here must not stop Medusa replacing or deleting the session. */
  private async reverseIfStillPending(data: Data): Promise<void> {
    if (!data.transaction_id || !this.options_.apm?.terminalReference) return
    try {
      const state = await this.readTransaction(data)
      if (state.status === "pending") await this.reverse(data)
    } catch (error) {
      this.logger_?.warn(`nexi: could not reverse pending ${this.method} transaction ${data.transaction_id}: ${(error as Error).message}`)
    }
  }

  private async readTransaction(data: Data): Promise<ApmPaymentState> {
    const { client } = this.configured("read the payment status", { starting: false })
    const envelope = await client.getTransaction(this.require(data.transaction_id, "transaction_id", "read the payment status"), data.next_link)
    const state = readApmPaymentState(envelope)
    const paid = state.status === "authorized" || state.status === "captured"
    const held = envelope.response?.request?.transaction?.amount
    const short = held && data.amount_minor && (held.currencyCode !== data.currency || BigInt(held.totalAmount) < BigInt(data.amount_minor))
    // Never let Medusa record more than the service holds.
    if (paid && short) return { ...state, status: "error", reason: "The mobile payment service holds less than the session amount." }
    return state
  }

  /** Reads the transaction and folds its state into the session data. */
  protected async readState(raw: Record<string, unknown> | undefined, action: string): Promise<{ state: ApmPaymentState; data: Record<string, unknown> }> {
    const data = readApmSessionData(raw)
    try {
      this.require(data.transaction_id, "transaction_id", action)
      const state = await this.readTransaction(data)
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

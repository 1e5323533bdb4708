/**
 * The mobile payment providers (`pp_nexi-apm-<scheme>_nexi`): Medusa's payment lifecycle on
 * the alternative-payment transaction service (apm-api.md). This base class holds the whole
 * lifecycle; scheme-providers.ts has one tiny subclass per scheme. The shopper approves in
 * their app and the service sends no notifications, so a pending session is completed by
 * polling: the status route and the reconciliation job send in-process reconcile requests
 * through getWebhookActionAndData. Behaviour and choices: docs/apm-provider.md.
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
import { createApmClient } from "../../../apm/http-apm-client"
import type { ApmAmount, ApmMethod, Envelope, InitializeRequest, TransactionType } from "../../../apm/schemas"
import { NotFoundError, TransactionRejectedError } from "../../../http/errors"
import { minorToMajorString, toMinorUnits } from "../../../money/amount"
import type { ApmOptions } from "../options"
import { readCartContext, withoutCartContext } from "../shared/cart-context"
import { idempotencyUuid } from "../shared/idempotency"
import { toMedusaError } from "../shared/medusa-errors"
import type { SessionRecord } from "../shared/payment-records"
import { NexiProviderBase, SESSION_STATUS, WEBHOOK_ACTION } from "../shared/provider-base"
import { readReconcileRequest } from "../shared/reconcile-request"
import type { NexiWebhookData } from "../shared/webhook-data"
import { buildPaymentRequest, consumerName } from "./payment-request"
import { buildPurchase, refundPurchaseAmount } from "./purchase-amounts"
import { type ApmSessionData, readApmSessionData, readConsumerId } from "./session-data"
import { type ApmPaymentState, readApmPaymentState } from "./transaction-state"

type Data = Partial<ApmSessionData>

export abstract class NexiApmProviderService extends NexiProviderBase<ApmPaymentState> {
  /** The scheme this provider pays with (apm-api.md `method`). */
  protected abstract readonly method: ApmMethod

  private client_?: ApmClient

  protected get providerLabel(): string {
    return `Nexi ${this.method}`
  }

  /** Overridable so tests can point the provider at any ApmClient. */
  protected createApmClient(options: ApmOptions): ApmClient {
    return createApmClient({
      consumerKey: options.consumerKey,
      consumerSecret: options.consumerSecret,
      environment: options.environment,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      logger: this.logger_,
    })
  }

  /**
   * The configured service, or a clear error: without `apm` options every mobile payment
   * provider refuses (the card provider still works), and a scheme the store did not list
   * in `apm.methods` refuses to start payments.
   */
  private configured(action: string, { starting }: { starting: boolean }): { apm: ApmOptions; client: ApmClient } {
    const apm = this.options_.apm
    if (!apm) {
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
    this.client_ ??= this.createApmClient(apm)
    return { apm, client: this.client_ }
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
    return { data, status: SESSION_STATUS[data.status] }
  }

  /** A session replaced by another one: its transaction must not stay approvable in the app. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    await this.reverseIfStillPending(readApmSessionData(input.data))
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

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = readApmSessionData(input.data)
    const refundId = input.context?.idempotency_key
    try {
      // A refund recorded from outside Medusa (the service's back office) is already done there.
      const metadata = await this.records.refundMetadata(refundId)
      if (metadata?.nexi_operation_id) return { data: input.data }

      const { client } = this.configured("refund the payment", { starting: false })
      const transactionId = this.require(data.transaction_id, "transaction_id", "refund the payment")
      const currency = this.require(data.currency, "currency", "refund the payment")
      const refundMinor = BigInt(toMinorUnits(input.amount as never, currency))
      const refundedBefore = { totalMinor: BigInt(data.refunded_minor ?? "0"), vatMinor: BigInt(data.refunded_vat_minor ?? "0") }
      const purchaseAmount = refundPurchaseAmount({ refundMinor, original: this.paidAmount(data), refundedBefore })
      const envelope = await this.send(
        client,
        "refund",
        this.followUpRequest(data, purchaseAmount, { originalReference: transactionId }),
        refundId ?? `${transactionId}:refund:${refundedBefore.totalMinor}:${refundMinor}`,
      )
      const refundTransactionId = transactionFields(envelope).transaction_id
      return {
        data: {
          ...input.data,
          refunded_minor: (refundedBefore.totalMinor + refundMinor).toString(),
          refunded_vat_minor: (refundedBefore.vatMinor + BigInt(purchaseAmount.vatAmount)).toString(),
          refund_transaction_ids: [...(data.refund_transaction_ids ?? []), ...(refundTransactionId ? [refundTransactionId] : [])],
        },
      }
    } catch (error) {
      throw toMedusaError(error, "refund the payment")
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
   * The service sends no notifications: only the plugin's in-process reconcile request (the
   * status route, the reconciliation job) is answered; anything else changes nothing.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const sessionId = readReconcileRequest(payload)
    const session = sessionId ? await this.records.session(sessionId) : undefined
    const data = readApmSessionData(session?.data)
    if (!session || !data.transaction_id) {
      if (!sessionId) this.logger_?.warn(`nexi: ${this.method} has no notifications; ignored a webhook call`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    let state: ApmPaymentState
    try {
      state = await this.readTransaction(data)
    } catch (error) {
      // 404: not a transaction of these credentials; nothing to do. Anything else is retried.
      if (error instanceof NotFoundError) return { action: PaymentActions.NOT_SUPPORTED }
      throw error
    }
    if (state.status === "pending" && this.pollTimedOut(session)) state = await this.timeOut(data, state)
    const result: NexiWebhookData = {
      session_id: session.id,
      amount: MathBN.convert(minorToMajorString(data.amount_minor ?? "0", data.currency ?? "EUR")),
      ...(state.reason ? { nexi_reason: state.reason } : {}),
    }
    return { action: WEBHOOK_ACTION[state.status], data: result as WebhookActionResult["data"] }
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
    const amountMinor = this.minor(input.amount, currency, "start the payment")
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
    try {
      // The same session sending the same request is a retry; anything that changed is a new payment.
      const envelope = await this.send(client, "payment", request, `${sessionId}:payment:${JSON.stringify(request)}`)
      // The reconciliation job reads the transaction first after the shopper had time to approve.
      const pollAfter = new Date(Date.now() + apm.pollIntervalSeconds * 1000).toISOString()
      return { ...base, ...transactionFields(envelope), status: "pending", poll_after: pollAfter }
    } catch (error) {
      // 201 "created but rejected": a decline. The session is kept, showing why, so the
      // storefront can tell the shopper and let them try again with a new session.
      if (!(error instanceof TransactionRejectedError)) throw toMedusaError(error, "start the payment")
      const state = readApmPaymentState({ ...error.envelope, state: error.envelope.response?.request?.transaction?.state ?? "REJECTED" })
      const reason = state.status === "error" || state.status === "canceled" ? state.reason : undefined
      return {
        ...base,
        ...transactionFields(error.envelope),
        status: "error",
        reason: reason ?? "The mobile payment scheme rejected the payment.",
      }
    }
  }

  private send(client: ApmClient, type: TransactionType, request: InitializeRequest, medusaKey: string): Promise<Envelope> {
    return client.initializeWithIdempotency(type, request, idempotencyUuid(medusaKey))
  }

  /** The payment as it was sent: refunds and reversals go back the same way. */
  private paidAmount(data: Data): ApmAmount {
    const total = Number(this.require(data.amount_minor, "amount_minor", "refund the payment"))
    const vat = Number(data.vat_minor ?? "0")
    return { currencyCode: data.currency!, totalAmount: total, vatAmount: vat, nominalAmount: total - vat }
  }

  private followUpRequest(data: Data, purchaseAmount: ApmAmount, references: Partial<InitializeRequest>): InitializeRequest {
    return {
      merchantId: this.options_.apm!.merchantId,
      method: this.method,
      purchaseAmount,
      consumer: {
        consumerId: this.require(data.consumer_id, "consumer_id", "change the payment"),
        name: data.consumer_name || "Customer",
      },
      ...references,
    }
  }

  /** Reverses the whole payment; returns the reversal's transaction id. */
  private async reverse(data: Data): Promise<string | undefined> {
    const { apm, client } = this.configured("cancel the payment", { starting: false })
    if (!apm.terminalReference) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Could not cancel the payment: the mobile payment service needs a terminal reference for a reversal. Set the Nexi provider option apm.terminalReference.",
      )
    }
    const transactionId = data.transaction_id!
    const request = this.followUpRequest(data, this.paidAmount(data), {
      terminalReference: apm.terminalReference,
      originalReference: transactionId,
    })
    const envelope = await this.send(client, "reversal", request, `${transactionId}:reversal`)
    return transactionFields(envelope).transaction_id
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
    const envelope = await client.getTransaction(data.transaction_id!, data.next_link)
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

/** What an answer tells about its transaction; the approval link only while it is pending. */
function transactionFields(envelope: Envelope): Pick<Data, "transaction_id" | "state" | "account_state" | "next_link" | "approval_url"> {
  const transaction = envelope.response?.request?.transaction
  const link = envelope.nextLink
  const id = transaction?.transactionId ?? link?.params?.transactionId
  return {
    transaction_id: id === undefined ? undefined : String(id),
    state: transaction?.state,
    account_state: transaction?.accountState,
    next_link: link,
    approval_url: link?.params?.approvalUrl,
  }
}

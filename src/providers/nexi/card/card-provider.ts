/**
 * The card payment provider (`pp_nexi_nexi`): Medusa's payment lifecycle on the Nexi XPay
 * hosted payment page. Each method reads or writes the gateway through the GatewayClient and
 * keeps the session data true; the mapping of a gateway order to a status is in order-state.ts.
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
import type { GatewayClient } from "../../../gateway/gateway-client"
import { createGatewayClient } from "../../../gateway/http-gateway-client"
import { newOrderId } from "../../../gateway/order-id"
import { NotificationSchema, type OrderDetails } from "../../../gateway/schemas"
import { InvalidRequestError, NotFoundError } from "../../../http/errors"
import { minorToMajorString, toMinorUnits } from "../../../money/amount"
import type { NexiOptions } from "../options"
import { readCartContext, withoutCartContext } from "../shared/cart-context"
import { idempotencyUuid } from "../shared/idempotency"
import { toMedusaError } from "../shared/medusa-errors"
import type { SessionRecord } from "../shared/payment-records"
import { NexiProviderBase, type ProviderCradle, WEBHOOK_ACTION } from "../shared/provider-base"
import { readReconcileRequest } from "../shared/reconcile-request"
import { hashSecurityToken, securityTokenMatches } from "../shared/security-token"
import type { NexiWebhookData } from "../shared/webhook-data"
import { buildHostedOrderRequest } from "./hosted-order"
import { isMotoRequest, motoSessionData } from "./moto"
import { notificationProblem, parseNotificationBody } from "./notification-body"
import { type CardPaymentState, readCardPaymentState } from "./order-state"
import { type CardSessionData, readCardSessionData } from "./session-data"

export class NexiCardProviderService extends NexiProviderBase<CardPaymentState> {
  static identifier = "nexi"

  protected readonly gateway: GatewayClient

  constructor(cradle: ProviderCradle, options: NexiOptions) {
    super(cradle, options)
    this.gateway = this.createGateway()
  }

  protected get providerLabel(): string {
    return "Nexi card"
  }

  /** Overridable so tests and the benchmark can point the provider at any GatewayClient. */
  protected createGateway(): GatewayClient {
    return createGatewayClient({
      apiKey: this.options_.apiKey,
      environment: this.options_.environment,
      timeoutMs: this.options_.timeoutMs,
      retries: this.options_.retries,
      logger: this.logger_,
    })
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    if (isMotoRequest(input.context)) {
      // Staff charge the card through the admin route; only the gateway order id is reserved here.
      const currency = input.currency_code.toUpperCase()
      const amountMinor = this.minor(input.amount, currency, "start the MOTO payment")
      const data = motoSessionData({ sessionId, orderId: newOrderId(this.options_.orderIdPrefix), amountMinor, currency })
      return { id: data.order_id, data, status: "pending_authorization" }
    }
    const data = await this.startHostedOrder(sessionId, input)
    return { id: data.order_id, data, status: "pending" }
  }

  /** A hosted order cannot change: a new amount or currency needs a new one; the old one expires unpaid. */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const current = readCardSessionData(input.data)
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "update the payment")
    if (current.order_id && current.amount_minor === amountMinor && current.currency === currency) {
      return { data: withoutCartContext(input.data) }
    }
    if (current.moto === true) {
      // Its gateway order may already be charged: a new amount needs a new MOTO payment.
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Could not update the payment: a MOTO payment's amount cannot change. Start a new MOTO payment.")
    }
    const sessionId = String(current.session_id ?? input.context?.idempotency_key ?? "")
    return { data: await this.startHostedOrder(sessionId, input), status: "pending" }
  }

  /** Nothing to undo: an unpaid hosted order simply expires at the gateway. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data }
  }

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = readCardSessionData(input.data)
    const captureId = input.context?.idempotency_key
    try {
      const operationId = this.require(data.payment_operation_id, "payment_operation_id", "capture the payment")
      const currency = this.require(data.currency, "currency", "capture the payment")
      const amountMajor = await this.records.captureAmount(captureId)
      const amountMinor = amountMajor === undefined ? data.amount_minor! : toMinorUnits(amountMajor, currency)
      try {
        const answer = await this.gateway.capture(
          operationId,
          { amount: amountMinor, currency, description: `Capture ${captureId ?? ""}`.trim() },
          idempotencyUuid(captureId ?? `${data.session_id}:capture`),
        )
        return { data: { ...input.data, capture_operation_id: answer.operationId, status: "captured" } }
      } catch (error) {
        if (!(error instanceof InvalidRequestError)) throw error
        return { data: await this.captureAlreadyDone(data, captureId, error) }
      }
    } catch (error) {
      throw toMedusaError(error, "capture the payment")
    }
  }

  /**
   * The gateway refused the capture. It is a success when the gateway already holds at least
   * what Medusa will have captured (IMPLICIT capture, a capture in the gateway's back office,
   * or our own earlier attempt); otherwise the refusal stands, with its reason.
   */
  private async captureAlreadyDone(
    data: Partial<CardSessionData>,
    captureId: string | undefined,
    refusal: InvalidRequestError,
  ): Promise<Record<string, unknown>> {
    const state = readCardPaymentState(await this.gateway.getOrder(data.order_id!))
    const medusaTotal = await this.records.capturedTotalOfPaymentOf(captureId)
    const medusaTotalMinor = medusaTotal === undefined ? data.amount_minor! : toMinorUnits(medusaTotal, data.currency!)
    if (state.captureOperationId && BigInt(state.capturedMinor) >= BigInt(medusaTotalMinor)) {
      return { ...data, capture_operation_id: state.captureOperationId, status: "captured" }
    }
    if (state.captureOperationId) {
      const captured = minorToMajorString(state.capturedMinor, data.currency!)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not capture the payment: the Nexi gateway accepts one capture per authorization and ${captured} ${data.currency} is already captured. Refund or cancel that capture instead.`,
      )
    }
    throw refusal
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = readCardSessionData(input.data)
    const refundId = input.context?.idempotency_key
    try {
      // A refund recorded from the gateway (made in its back office) is already done there.
      const metadata = await this.records.refundMetadata(refundId)
      if (metadata?.nexi_operation_id) return { data: input.data }

      const currency = this.require(data.currency, "currency", "refund the payment")
      const amountMinor = toMinorUnits(input.amount as never, currency)
      const captureOperationId = data.capture_operation_id ?? (await this.readState(input.data, "refund the payment")).state.captureOperationId
      const target = this.require(captureOperationId, "capture_operation_id", "refund the payment")
      await this.gateway.refund(
        target,
        { amount: amountMinor, currency, description: `Refund ${refundId ?? ""}`.trim() },
        idempotencyUuid(refundId ?? `${data.session_id}:refund:${amountMinor}`),
      )
      return { data: { ...input.data, capture_operation_id: target } }
    } catch (error) {
      throw toMedusaError(error, "refund the payment")
    }
  }

  /**
   * Order cancel, or Medusa undoing a payment it could not record. An uncaptured authorization
   * is voided (a refund on the AUTHORIZATION operation); a capture is cancelled, or refunded
   * when the gateway no longer allows the cancel (it does so on the day of the capture only).
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readCardSessionData(input.data)
    const key = input.context?.idempotency_key ?? data.session_id ?? data.order_id ?? ""
    try {
      if (!data.order_id) return { data: input.data }
      const state = readCardPaymentState(await this.gateway.getOrder(data.order_id))
      if (state.status === "captured") {
        await this.undoCapture(state, data.currency!, key)
      } else if (state.status === "authorized" && state.paymentOperationId) {
        await this.gateway.refund(
          state.paymentOperationId,
          { amount: state.authorizedMinor, currency: data.currency!, description: "Void of an uncaptured authorization" },
          idempotencyUuid(`${key}:void`),
        )
      }
      return { data: { ...input.data, status: "canceled" } }
    } catch (error) {
      throw toMedusaError(error, "cancel the payment")
    }
  }

  private async undoCapture(state: CardPaymentState, currency: string, key: string): Promise<void> {
    const captureOperationId = state.captureOperationId!
    try {
      await this.gateway.cancelCapture(captureOperationId, { description: "Payment cancelled in Medusa" })
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error
      const remaining = BigInt(state.capturedMinor) - BigInt(state.refundedMinor)
      if (remaining <= 0n) return
      await this.gateway.refund(
        captureOperationId,
        { amount: remaining.toString(), currency, description: "Refund of a capture that can no longer be cancelled" },
        idempotencyUuid(`${key}:cancel-refund`),
      )
    }
  }

  /**
   * Called by Medusa's webhook subscriber for POST /hooks/payment/nexi_nexi, and by the
   * plugin's reconciliation with an in-process reconcile request. The body is never trusted:
   * a notification must carry the securityToken issued for that order, and the payment's
   * state is always read again from the gateway. Anything that fails those checks is
   * answered `not_supported`, which changes nothing (throwing would make the event bus retry).
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const reconcileSessionId = readReconcileRequest(payload)
    if (reconcileSessionId) return this.reconcileSession(reconcileSessionId)

    const notification = parseNotificationBody(payload, NotificationSchema)
    const orderId = notification?.operation.orderId
    if (!notification || !orderId) {
      // Names what is wrong, so a merchant can tell a misconfigured sender from noise.
      const problem = notification ? "operation.orderId: is required" : notificationProblem(payload, NotificationSchema)
      this.logger_?.warn(`nexi: ignored a notification that is not a gateway notification (${problem})`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const details = await this.readOrderOrNothing(orderId)
    if (!details) {
      this.logger_?.warn(`nexi: ignored a notification for unknown order ${orderId}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const sessionId = details.orderStatus.order.customField
    const session = sessionId ? await this.records.session(sessionId) : undefined
    const sessionData = readCardSessionData(session?.data)
    if (!session || sessionData.order_id !== orderId || !securityTokenMatches(notification.securityToken, sessionData.security_token_hash)) {
      this.logger_?.warn(`nexi: ignored a notification for order ${orderId} whose security token does not match`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    return this.actionFor(session, details)
  }

  private async reconcileSession(sessionId: string): Promise<WebhookActionResult> {
    const session = await this.records.session(sessionId)
    const data = readCardSessionData(session?.data)
    const details = data.order_id ? await this.readOrderOrNothing(data.order_id) : undefined
    return session && details ? this.actionFor(session, details) : { action: PaymentActions.NOT_SUPPORTED }
  }

  /** 404 means "no such order" (nothing to do); an unreachable gateway throws, so the event is retried. */
  private async readOrderOrNothing(orderId: string): Promise<OrderDetails | undefined> {
    try {
      return await this.gateway.getOrder(orderId)
    } catch (error) {
      if (error instanceof NotFoundError) return undefined
      throw error
    }
  }

  /**
   * Core acts on `authorized` and `captured` by completing the cart. Once Medusa holds the
   * payment, later notifications (a capture, a refund) must not run that again: they are
   * `not_supported` for core, and carry the gateway's refunds for the plugin's own subscriber.
   */
  private actionFor(session: SessionRecord, details: OrderDetails): WebhookActionResult {
    const data = readCardSessionData(session.data)
    const state = readCardPaymentState(details)
    const alreadyPaid = session.status === "authorized" || session.status === "captured"
    const action = alreadyPaid ? PaymentActions.NOT_SUPPORTED : WEBHOOK_ACTION[state.status]
    const result: NexiWebhookData = {
      session_id: session.id,
      amount: MathBN.convert(minorToMajorString(this.paidMinor(state, data), data.currency!)),
      nexi_reason: state.reason,
      nexi_refunded: minorToMajorString(state.refundedMinor, data.currency!),
      nexi_refund_operation_ids: state.refunds.filter((refund) => refund.result !== "PENDING").map((refund) => refund.operationId),
    }
    return { action, data: result as WebhookActionResult["data"] }
  }

  private paidMinor(state: CardPaymentState, data: Partial<CardSessionData>): string {
    if (state.status === "captured") return state.capturedMinor
    if (state.status === "authorized") return state.authorizedMinor
    return data.amount_minor ?? "0"
  }

  private async startHostedOrder(
    sessionId: string,
    input: InitiatePaymentInput | UpdatePaymentInput,
  ): Promise<CardSessionData> {
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "start the payment")
    const orderId = newOrderId(this.options_.orderIdPrefix)
    const request = buildHostedOrderRequest({
      orderId,
      sessionId,
      amountMinor,
      currencyCode: currency,
      customer: input.context?.customer,
      cart: readCartContext(input.data),
      options: this.options_,
    })
    try {
      const answer = await this.gateway.createHostedOrder(request)
      return {
        ...withoutCartContext(input.data),
        session_id: sessionId,
        order_id: orderId,
        hosted_page: answer.hostedPage,
        amount_minor: amountMinor,
        currency,
        security_token_hash: hashSecurityToken(answer.securityToken),
        status: "pending",
        // When the reconciliation job may start reading this order, if no notification came.
        poll_after: new Date(Date.now() + this.options_.pollPendingAfterSeconds * 1000).toISOString(),
        reason: undefined,
        payment_operation_id: undefined,
        capture_operation_id: undefined,
      }
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
  }

  /** Reads the gateway order and folds its state into the session data. */
  protected async readState(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: CardPaymentState; data: Record<string, unknown> }> {
    const data = readCardSessionData(raw)
    try {
      const orderId = this.require(data.order_id, "order_id", action)
      const state = readCardPaymentState(await this.gateway.getOrder(orderId))
      const paid = state.status === "authorized" || state.status === "captured"
      if (paid && data.amount_minor && BigInt(state.authorizedMinor || state.capturedMinor) < BigInt(data.amount_minor)) {
        // Never let Medusa record more than the gateway holds.
        state.status = "error"
        state.reason = "The gateway authorized less than the session amount."
      }
      return {
        state,
        data: {
          ...raw,
          status: state.status,
          reason: state.reason,
          payment_operation_id: state.paymentOperationId,
          capture_operation_id: state.captureOperationId,
        },
      }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }
}

/**
 * What a card notification, or the plugin's own reconcile request, means for Medusa: the card
 * provider's getWebhookActionAndData. The body is never trusted: a notification must carry the
 * securityToken issued for its order, and the payment's state is always read again from the
 * gateway. An order its live session still points at is that session's payment; money on any
 * other order is released. Anything that fails the checks is answered `not_supported`, which
 * changes nothing (throwing would make the event bus retry).
 */
import type { Logger, ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import { MathBN, PaymentActions } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../../gateway/gateway-client"
import { NotificationSchema, type OrderDetails } from "../../../gateway/schemas"
import { NotFoundError } from "../../../http/errors"
import type { PaymentAttempt, PaymentLedger } from "../../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../../money/amount"
import { changesNothing, watchAfterRead } from "../../../core/attempt-watch"
import type { PaymentRecords, SessionRecord } from "../../../core/payment-records"
import { WEBHOOK_ACTION } from "../shared/provider-base"
import { type ReconcileSubject, readReconcileRequest } from "../shared/reconcile-request"
import { securityTokenMatches } from "../../../core/security-token"
import type { NexiWebhookData } from "../shared/webhook-data"
import { SAVE_CARD_KEY } from "./card-on-file"
import type { CardWallet } from "./card-wallet"
import { type SettleContext, settledWritesOf } from "./ledgered-writes"
import { notificationProblem, parseNotificationBody } from "../../../core/notification-body"
import { type CardPaymentState, readCardPaymentState } from "./order-state"
import { releaseOrphan } from "./release-orphan"
import { type CardSessionData, readCardSessionData } from "../../../core/card-session-data"

export interface CardNotificationDeps {
  gateway: GatewayClient
  /** The ledger, or an error naming `action` when the store lacks it. */
  ledger: (action: string) => PaymentLedger
  records: PaymentRecords
  /** Verifications of saved cards (no payment attempt) are the wallet's. */
  wallet: Pick<CardWallet, "handleVerificationNotification">
  /** Ends the card a declined or cancelled session was to save. */
  saveCardOf: (orderId: string, state: CardPaymentState) => Promise<void>
  logger?: Logger
}

export class CardNotifications {
  constructor(private readonly deps: CardNotificationDeps) {}

  /** A notification body or a reconcile request, as Medusa passes it to the provider. */
  async handle(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const subject = readReconcileRequest(payload)
    if (subject) return this.reconcile(subject)

    const notification = parseNotificationBody(payload, NotificationSchema)
    const orderId = notification?.operation.orderId
    if (!notification || !orderId) {
      // Names what is wrong, so a merchant can tell a misconfigured sender from noise.
      const problem = notification ? "operation.orderId: is required" : notificationProblem(payload, NotificationSchema)
      this.deps.logger?.warn(`nexi: ignored a notification that is not a gateway notification (${problem})`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    // The token is checked before anything is read from the gateway: a forged notification
    // costs the store no gateway read. Every order the plugin hands out is in the ledger (a
    // payment attempt, or a saved card's verification) with the hash of its token.
    const attempt = await this.deps.ledger("handle the notification").findAttempt(orderId)
    if (!attempt) {
      const read = () => this.readOrderOrNothing(orderId)
      if (!(await this.deps.wallet.handleVerificationNotification(orderId, notification.securityToken, read))) {
        this.deps.logger?.warn(`nexi: ignored a notification for unknown order ${orderId}`)
      }
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const session = attempt.session_id ? await this.deps.records.session(attempt.session_id) : undefined
    const sessionData = readCardSessionData(session?.data)
    // The ledger keeps each order's token, so a superseded order's notification is still verifiable.
    const tokenHash = attempt.security_token_hash ?? (sessionData.order_id === orderId ? sessionData.security_token_hash : undefined)
    if (!securityTokenMatches(notification.securityToken, tokenHash)) {
      this.deps.logger?.warn(`nexi: ignored a notification for order ${orderId} whose security token does not match`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const details = await this.readOrderOrNothing(orderId)
    if (!details) {
      this.deps.logger?.warn(`nexi: ignored a notification for unknown order ${orderId}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    return this.settleOrder(orderId, attempt, session, details)
  }

  private async reconcile(subject: ReconcileSubject): Promise<WebhookActionResult> {
    if (subject.sessionId !== undefined) {
      const session = await this.deps.records.session(subject.sessionId)
      const orderId = readCardSessionData(session?.data).order_id
      const details = orderId ? await this.readOrderOrNothing(orderId) : undefined
      if (!session || !orderId || !details) return { action: PaymentActions.NOT_SUPPORTED }
      return this.settleOrder(orderId, await this.deps.ledger("read the payment").findAttempt(orderId), session, details)
    }
    const ledger = this.deps.ledger("reconcile the payment")
    const attempt = await ledger.findAttempt(subject.gatewayRef)
    if (!attempt) return { action: PaymentActions.NOT_SUPPORTED }
    const details = await this.readOrderOrNothing(attempt.gateway_ref)
    if (!details) {
      // Never created at the gateway (or not yet charged, for MOTO): watch it like a pending one.
      await ledger.updateAttempt(attempt.gateway_ref, watchAfterRead(attempt, "pending", new Date()))
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const session = attempt.session_id ? await this.deps.records.session(attempt.session_id) : undefined
    return this.settleOrder(attempt.gateway_ref, attempt, session, details)
  }

  /**
   * What a genuine read of a gateway order means. Writes of the order whose answer was lost
   * are settled first. An order its live session still points at is that session's payment;
   * any other order holding money is released.
   */
  private async settleOrder(
    orderId: string,
    attempt: PaymentAttempt | undefined,
    session: SessionRecord | undefined,
    details: OrderDetails,
  ): Promise<WebhookActionResult> {
    const context = this.writeContext("settle the payment")
    await settledWritesOf(context, orderId)
    const owned = session !== undefined && readCardSessionData(session.data).order_id === orderId
    if (owned) {
      const result = this.actionFor(session, details)
      const state = readCardPaymentState(details)
      const watch = attempt && watchAfterRead(attempt, state.status, new Date(), state.reason)
      // The notification of a payment Medusa already holds finds the attempt paid: nothing to write.
      if (attempt && watch && !changesNothing(attempt, watch)) await context.ledger.updateAttempt(orderId, watch)
      // Medusa never authorizes a declined or cancelled session, so authorizePayment would leave
      // the card it was to save pending for good; it ends here. A paid one becomes active there.
      if (session.data[SAVE_CARD_KEY] === true && (state.status === "error" || state.status === "canceled")) {
        await this.deps.saveCardOf(orderId, state)
      }
      return result
    }
    // A released attempt is done: its writes were settled above. A later read (the void's own
    // notification) must not turn it into a closed one, which staff no longer see as released.
    if (!attempt || attempt.state === "released") return { action: PaymentActions.NOT_SUPPORTED }
    const why = session ? "a hosted order the cart had replaced" : "a hosted order whose payment session was deleted"
    const released = await releaseOrphan(context, attempt, details, attempt.note ?? why, this.deps.logger)
    if (released === "nothing_paid") {
      const state = readCardPaymentState(details)
      await context.ledger.updateAttempt(orderId, watchAfterRead(attempt, state.status, new Date(), state.reason))
    }
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  /** 404 means "no such order" (nothing to do); an unreachable gateway throws, so the event is retried. */
  private async readOrderOrNothing(orderId: string): Promise<OrderDetails | undefined> {
    try {
      return await this.deps.gateway.getOrder(orderId)
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
    const currency = details.orderStatus.order.currency ?? data.currency ?? ""
    const state = readCardPaymentState(details)
    const alreadyPaid = session.status === "authorized" || session.status === "captured"
    const action = alreadyPaid ? PaymentActions.NOT_SUPPORTED : WEBHOOK_ACTION[state.status]
    const result: NexiWebhookData = {
      session_id: session.id,
      amount: MathBN.convert(minorToMajorString(this.paidMinor(state, data), currency)),
      nexi_reason: state.reason,
      nexi_refunded: minorToMajorString(state.refundedMinor, currency),
      nexi_order_id: details.orderStatus.order.orderId,
      nexi_refunds: state.refunds
        .filter((refund) => refund.result === "REFUNDED" || refund.result === "EXECUTED")
        .map((refund) => ({ operation_id: refund.operationId, amount: minorToMajorString(refund.amountMinor, currency) })),
    }
    return { action, data: result as WebhookActionResult["data"] }
  }

  private paidMinor(state: CardPaymentState, data: Partial<CardSessionData>): string {
    if (state.status === "captured") return state.capturedMinor
    if (state.status === "authorized") return state.authorizedMinor
    return data.amount_minor ?? "0"
  }

  private writeContext(action: string): SettleContext {
    return { gateway: this.deps.gateway, ledger: this.deps.ledger(action), action, records: this.deps.records, logger: this.deps.logger }
  }
}

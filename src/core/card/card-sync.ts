/**
 * The one sync of a card payment's gateway order. A notification, the reconciliation job, the
 * storefront's status poll and the admin's Sync all call it: it verifies (a notification's
 * security token first, before any gateway read), reads the order once (again only when settling
 * its writes sent one cut off before it reached the gateway), decides once what the read means
 * for Medusa and applies it once (medusa-payments.ts: a cart is completed under Medusa's cart
 * lock, back-office money recorded under the Medusa payment's lock).
 *
 * An order its live session still points at is that session's payment; money on any other
 * order no order will ever capture, so it is released.
 */
import type { Logger, MedusaContainer, ProviderWebhookPayload } from "@medusajs/framework/types"
import type { GatewayClient } from "../../gateway/gateway-client"
import { NotificationSchema, type OrderDetails } from "../../gateway/schemas"
import type { PaymentAttempt, PaymentLedger, SavedCardBook, WriteKind } from "../../modules/nexi-ledger/types"
import { minorMoneyText } from "../../money/amount"
import { changesNothing, watchAfterRead } from "../attempt-watch"
import { idempotencyUuid } from "../idempotency"
import { type MedusaChanges, medusaChangesOf, type SyncOutcome } from "../medusa-payments"
import type { SessionRecord } from "../medusa-records"
import { notificationProblem, parseNotificationBody } from "../notification-body"
import type { MedusaRows } from "../send-once"
import { NO_LONGER_OWNED } from "../staff-sessions"
import { gatewayClientFor, ledgerOf, loggerOf, paymentRecordsOf } from "../store-entries"
import { type CardOrder, holdsOnlyItsAuthorization, readCardOrder } from "./card-order"
import { readCardSessionData, securityTokenMatches } from "./card-sessions"
import {
  type CardWriteContext,
  heldByTheirUndo,
  orderOrNone,
  requestOf,
  sendCardWrite,
  settledWritesOf,
} from "./card-writes"
import { payableUntil } from "./payment-links"
import { SAVE_CARD_KEY, saveCardOfPayment } from "./saved-card-choice"
import { handleVerificationNotification } from "./saved-card-methods"

export interface CardOrderRead {
  details: OrderDetails
  /** The read model of `details` (card-order.ts). */
  state: CardOrder
}

type ReleaseOutcome = "voided" | "refunded" | "nothing_paid"

/** The card's gateway, as the sync reads and writes it; cardSyncPort below builds it for one store entry. */
export interface CardGatewayPort {
  /** One read of the order, through the read model; undefined when the gateway knows no such order. */
  readOrder(orderId: string): Promise<CardOrderRead | undefined>
  /**
   * Settles the order's earlier writes whose answer was lost (the sender's rules), against
   * `state`'s order; whether one of them was made since `state` was read (cut off before it
   * reached the gateway, and sent now).
   */
  settleWrites(orderId: string, state: CardOrder): Promise<boolean>
  /** Gives back the money on an order no live session owns. */
  release(attempt: PaymentAttempt, read: CardOrderRead, why: string): Promise<ReleaseOutcome>
  /** A saved card's verification notification (no payment attempt); false when `orderId` is none. */
  verificationNotified(orderId: string, securityToken: string): Promise<boolean>
  /** Ends the card a declined or cancelled session was to save (Medusa never authorizes such a session). */
  endCardToSave(session: SessionRecord, orderId: string, state: CardOrder): Promise<void>
}

export interface CardSyncDeps {
  gateway: CardGatewayPort
  ledger: PaymentLedger
  sessions: { session(sessionId: string): Promise<SessionRecord | undefined> }
  medusa: Pick<MedusaChanges, "apply" | "checkoutCompleting">
  logger?: Logger
}

export class CardSync {
  constructor(private readonly deps: CardSyncDeps) {}

  /** A notification as Medusa's webhook route received it. Nothing is believed before its token. */
  async notification(payload: ProviderWebhookPayload["payload"]): Promise<SyncOutcome> {
    const notification = parseNotificationBody(payload, NotificationSchema)
    const orderId = notification?.operation.orderId
    if (!notification || !orderId) {
      // Names what is wrong, so a merchant can tell a misconfigured sender from noise.
      const problem = notification ? "operation.orderId: is required" : notificationProblem(payload, NotificationSchema)
      this.deps.logger?.warn(`nexi: ignored a notification that is not a gateway notification (${problem})`)
      return "unchanged"
    }
    // Every order the plugin hands out is in the ledger (a payment attempt, or a saved card's
    // verification) with the hash of its token.
    const attempt = await this.deps.ledger.findAttempt(orderId)
    if (!attempt) {
      if (!(await this.deps.gateway.verificationNotified(orderId, notification.securityToken))) {
        this.deps.logger?.warn(`nexi: ignored a notification for unknown order ${orderId}`)
      }
      return "unchanged"
    }
    const session = attempt.session_id ? await this.deps.sessions.session(attempt.session_id) : undefined
    const sessionData = readCardSessionData(session?.data)
    // The ledger keeps each order's token, so a superseded order's notification is still verifiable.
    const tokenHash =
      attempt.security_token_hash ?? (sessionData.order_id === orderId ? sessionData.security_token_hash : undefined)
    if (!securityTokenMatches(notification.securityToken, tokenHash)) {
      this.deps.logger?.warn(`nexi: ignored a notification for order ${orderId} whose security token does not match`)
      return "unchanged"
    }
    const read = await this.deps.gateway.readOrder(orderId)
    if (!read) {
      this.deps.logger?.warn(`nexi: ignored a notification for unknown order ${orderId}`)
      return "unchanged"
    }
    // Every checkout's notification finds an order that holds only its authorization: no write
    // of ours reached it, so none is looked for. One that never reached the gateway is settled
    // by the job (the ledger's writesToSettle), by staff's Sync or by the order's next write.
    return this.apply(orderId, attempt, session, read, { settleWrites: !holdsOnlyItsAuthorization(read.state) })
  }

  /** The current payment of a Medusa payment session (the status poll, the admin's Sync). */
  async session(sessionId: string): Promise<SyncOutcome> {
    const session = await this.deps.sessions.session(sessionId)
    const orderId = readCardSessionData(session?.data).order_id
    const read = orderId ? await this.deps.gateway.readOrder(orderId) : undefined
    if (!session || !orderId || !read) return "unchanged"
    return this.apply(orderId, await this.deps.ledger.findAttempt(orderId), session, read)
  }

  /** A gateway order the ledger says is unsettled (the job). */
  async attempt(gatewayRef: string): Promise<SyncOutcome> {
    const attempt = await this.deps.ledger.findAttempt(gatewayRef)
    if (!attempt) return "unchanged"
    const read = await this.deps.gateway.readOrder(attempt.gateway_ref)
    if (!read) {
      // Never created at the gateway (or not yet charged, for MOTO): watched like a pending one.
      await this.deps.ledger.updateAttempt(attempt.gateway_ref, watchAfterRead(attempt, "pending", new Date()))
      return "unchanged"
    }
    const session = attempt.session_id ? await this.deps.sessions.session(attempt.session_id) : undefined
    return this.apply(attempt.gateway_ref, attempt, session, read)
  }

  /**
   * What one read of the order means, applied. Writes of the order whose answer was lost are
   * settled first, so what Medusa is told next accounts for them; a notification may leave them
   * (above), never before a release.
   */
  private async apply(
    orderId: string,
    attempt: PaymentAttempt | undefined,
    session: SessionRecord | undefined,
    firstRead: CardOrderRead,
    { settleWrites }: { settleWrites: boolean } = { settleWrites: true },
  ): Promise<SyncOutcome> {
    let read = firstRead
    // A superseded attempt is owned by no session, even one still naming it (a cancelled payment link's).
    const owned = attempt?.state !== "superseded" && attempt?.state !== "released"
    if (session !== undefined && owned && readCardSessionData(session.data).order_id === orderId) {
      // A write sent just now is in the order Medusa is brought to: read again, or its refunds fall short.
      if (settleWrites && (await this.deps.gateway.settleWrites(orderId, read.state)))
        read = (await this.deps.gateway.readOrder(orderId)) ?? read
      const { state } = read
      // Left as it is, still watched: the shopper's checkout, completing the cart now, authorizes it.
      if (await this.deps.medusa.checkoutCompleting(session, state.status, attempt?.cart_id)) return "left_to_checkout"
      if (state.status === "error" || state.status === "canceled")
        await this.deps.gateway.endCardToSave(session, orderId, state)
      const outcome = await this.deps.medusa.apply(session, {
        ...state,
        orderId,
        gatewayRef: orderId,
        currency: this.currencyOf(read, session),
      })
      // Superseded now: read as an order no live session owns, the payment is released.
      if (outcome === NO_LONGER_OWNED)
        return this.releaseUnowned(orderId, await this.deps.ledger.findAttempt(orderId), session, read)
      // The watch moves once Medusa took the read in: a completion that failed, or that another
      // caller is making, leaves the attempt to be read again.
      const until = payableUntil(read.details.paymentLinks)
      const watch = attempt && watchAfterRead(attempt, state.status, new Date(), state.reason, until)
      // The notification of a payment Medusa already holds finds the attempt paid: nothing to write.
      if (outcome !== "left_to_checkout" && attempt && watch && !changesNothing(attempt, watch))
        await this.deps.ledger.updateAttempt(orderId, watch)
      return outcome
    }
    return this.releaseUnowned(orderId, attempt, session, read)
  }

  /** Gives back the money of an order no live session owns, once its writes are settled. */
  private async releaseUnowned(
    orderId: string,
    attempt: PaymentAttempt | undefined,
    session: SessionRecord | undefined,
    read: CardOrderRead,
  ): Promise<SyncOutcome> {
    const { state } = read
    await this.deps.gateway.settleWrites(orderId, state)
    // A released attempt is done: its writes are settled now. A later read (the void's own
    // notification) must not turn it into a closed one, which staff no longer see as released.
    if (!attempt || attempt.state === "released") return "unchanged"
    // Medusa took this payment in: its money is a Medusa payment's, which only Medusa's cancel or
    // refund gives back. Released here, it would be taken from an order: nothing is sent.
    if (attempt.state === "paid") {
      this.deps.logger?.error(
        `nexi: gateway order ${orderId} is paid and Medusa took the payment in, but payment session ${attempt.session_id ?? "(none)"} no longer owns it; nothing was given back: check the order's payment`,
      )
      return "unchanged"
    }
    const why = session ? "a hosted order the cart had replaced" : "a hosted order whose payment session was deleted"
    const released = await this.deps.gateway.release(attempt, read, attempt.note ?? why)
    if (released !== "nothing_paid") return "unchanged"
    // Read again: a copy of the notification may have released it since this read (the void
    // this one then read as nothing paid); released, it stays released.
    if ((await this.deps.ledger.findAttempt(orderId))?.state === "released") return "unchanged"
    const until = payableUntil(read.details.paymentLinks)
    await this.deps.ledger.updateAttempt(
      orderId,
      watchAfterRead(attempt, state.status, new Date(), state.reason, until),
    )
    return "unchanged"
  }

  private currencyOf(read: CardOrderRead, session: SessionRecord): string {
    return (
      read.details.orderStatus.order.currency ??
      readCardSessionData(session.data).currency ??
      session.currency_code.toUpperCase()
    )
  }
}

/** What the gateway's record of a released payment's void or refund says. */
const RELEASE_DESCRIPTION = "Release of a payment no order owns"

/**
 * Money on a gateway order that no live session owns any more: the shopper paid on a hosted
 * page the cart had already replaced (an old browser tab), or on one whose session Medusa
 * deleted. No order will ever capture it, so it goes back at once: an authorization is
 * voided, a capture (IMPLICIT) refunded. The ledger keeps the release for staff to see.
 */
async function releaseUnowned(
  context: CardWriteContext,
  attempt: PaymentAttempt,
  details: OrderDetails,
  why: string,
  logger?: Logger,
): Promise<ReleaseOutcome> {
  const state = readCardOrder(details)
  const orderId = attempt.gateway_ref
  const currency = details.orderStatus.order.currency ?? attempt.currency
  const base = { gateway_ref: orderId, currency, origin: "release" as const, medusa_ref: attempt.session_id }
  let outcome: ReleaseOutcome = "nothing_paid"
  let amountMinor = "0"
  if (state.status === "authorized" && state.paymentOperationId) {
    amountMinor = state.authorizedMinor
    const write = {
      ...base,
      kind: "void" as const,
      idempotency_key: idempotencyUuid(`${orderId}:release`),
      target_ref: state.paymentOperationId,
      amount_minor: amountMinor,
    }
    await sendCardWrite(context, write, requestOf(context.gateway, write, RELEASE_DESCRIPTION))
    outcome = "voided"
  } else if (state.status === "captured" && state.captureOperationId) {
    const left = BigInt(state.refundableMinor)
    amountMinor = left.toString()
    if (left > 0n) {
      const write = {
        ...base,
        kind: "refund" as const,
        idempotency_key: idempotencyUuid(`${orderId}:release-refund`),
        target_ref: state.captureOperationId,
        amount_minor: amountMinor,
      }
      await sendCardWrite(context, write, requestOf(context.gateway, write, RELEASE_DESCRIPTION))
    }
    outcome = "refunded"
  }
  if (outcome === "nothing_paid") return outcome
  const amount = minorMoneyText(amountMinor, currency)
  const note = `Payment of ${amount} on ${why}; ${outcome} automatically.`
  await context.ledger.updateAttempt(orderId, { state: "released", released_at: new Date(), next_check_at: null, note })
  logger?.error(
    `nexi: payment on ${why}, ${outcome}: gateway order ${orderId}, cart ${attempt.cart_id ?? "unknown"}, ${amount}`,
  )
  return outcome
}

/** What the card gateway's side of the sync is built from: one store entry's client, the ledger, Medusa's rows. */
export interface CardSyncPortDeps {
  gateway: GatewayClient
  ledger: PaymentLedger
  records: MedusaRows
  logger?: Logger
}

const ACTION = "sync the payment"
/** The writes whose operation the order lists (a link's creation names a link, a charge its own order). */
const MADE_ON_THE_ORDER: readonly WriteKind[] = ["capture", "refund", "void", "cancel_capture"]

export function cardSyncPort(deps: CardSyncPortDeps): CardGatewayPort {
  const { gateway, ledger, logger } = deps
  const book = ledger as unknown as SavedCardBook
  const context = { gateway, ledger, action: ACTION, records: deps.records, logger }

  /** No such order (a 404) is nothing to do. */
  async function readOrder(orderId: string): Promise<CardOrderRead | undefined> {
    const details = await orderOrNone(gateway, orderId)
    return details && { details, state: readCardOrder(details) }
  }

  return {
    readOrder,
    settleWrites: async (orderId, state) => {
      const writes = await heldByTheirUndo(context, await settledWritesOf(context, orderId), state)
      const shown = new Set(state.operations.map(({ operation }) => operation.operationId))
      return writes.some(
        (write) =>
          MADE_ON_THE_ORDER.includes(write.kind) &&
          write.outcome === "executed" &&
          write.gateway_operation_id !== null &&
          !shown.has(write.gateway_operation_id),
      )
    },
    release: (attempt, read, why) => releaseUnowned(context, attempt, read.details, why, logger),
    verificationNotified: (orderId, securityToken) =>
      handleVerificationNotification(
        { book, gateway, logger },
        orderId,
        securityToken,
        async () => (await readOrder(orderId))?.details,
      ),
    endCardToSave: async (session, orderId, state) => {
      // The state is the one readOrder made above: the read model's whole state.
      if (session.data[SAVE_CARD_KEY] === true) await saveCardOfPayment(book, gateway, orderId, state, logger)
    },
  }
}

/**
 * The sync of the card payments of the store entry behind `providerId` (`pp_nexi_nexi`), built
 * from the store's container: the entry's own gateway client (core/clients.ts), the ledger and
 * Medusa's payments. The notification subscriber, the job, the storefront's status route and
 * the admin's Sync all take it from here.
 */
export function cardSyncFor(container: MedusaContainer, providerId: string): CardSync {
  const ledger = ledgerOf(container)
  const records = paymentRecordsOf(container)
  const logger = loggerOf(container)
  const gateway = cardSyncPort({ gateway: gatewayClientFor(container, providerId), ledger, records, logger })
  return new CardSync({ gateway, ledger, sessions: records, medusa: medusaChangesOf(container, ledger), logger })
}

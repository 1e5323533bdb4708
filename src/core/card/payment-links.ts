/**
 * Nexi payment links (POST /orders/paybylink) for what a Medusa order still owes: the link's
 * state as staff and the storefront see it, and its two gateway writes, each sent once through
 * the one sender.
 *
 * A link is a hosted order under the gateway order id of one payment attempt (a session the
 * staff pipeline started for the `payment_link` channel), so:
 * - its creation is found again after a lost answer by that order id (the gateway refuses an
 *   order id it has seen, and lists the order's `paymentLinks`);
 * - its payment is read like any hosted payment, through the read model, by the one sync;
 * - its cancellation (POST /paybylink/{linkId}/cancels) takes no key, and cancelling again
 *   answers the same: a lost answer is settled by sending it again.
 *
 * The gateway's record of a link says whether it was paid and until when it can be, not
 * whether it was cancelled: the ledger's executed `link_cancellation` says that.
 */
import type { GatewayClient } from "../../gateway/gateway-client"
import type { OrderDetails, PayByLinkRequest, PaymentLink } from "../../gateway/schemas"
import { InvalidRequestError, NotFoundError } from "../../http/errors"
import type { MoneyWrite, PaymentLedger } from "../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../money/amount"
import { linkCancellationKey, linkCreationKey } from "../idempotency"
import { BySendingAgain, sendOnce } from "../send-once"
import type { CardOrder } from "./card-order"
import { ByOrderId } from "./card-writes"

const LINK_STATES = ["open", "paid", "expired", "cancelled"] as const
export type LinkState = (typeof LINK_STATES)[number]

/** The expiry staff choose, in whole days from today (UTC): the gateway takes a date at most 90 days ahead. */
export const DEFAULT_LINK_EXPIRY_DAYS = 7
export const MAX_LINK_EXPIRY_DAYS = 90

const DAY_MS = 86_400_000

/** The link's expirationDate (YYYY-MM-DD, UTC) `days` after `now`; it can be paid until that day's end. */
export function linkExpirationDate(days: number, now: Date): string {
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)
  return new Date(today + days * DAY_MS).toISOString().slice(0, 10)
}

/** A link as the admin and the storefront see it. */
export interface LinkView {
  link_id: string
  /** The hosted page the shopper opens. */
  url: string
  amount_minor: string
  /** The amount in major units, as staff and shoppers read it ("12.50"). */
  amount: string
  currency: string
  /** The end of the last day it can be paid (ISO date-time). */
  expires_at: string
  state: LinkState
  /** The gateway order the link pays: its payment is read there. */
  gateway_order_id: string
  paid_by_operation_id?: string
}

/** A date-time or a bare date (the end of that day, UTC), as the gateway may give either. */
function endOf(expiration: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(expiration) ? Date.parse(`${expiration}T23:59:59.999Z`) : Date.parse(expiration)
}

/**
 * Until when a customer can still pay on the order's links (undefined for an order with none):
 * the job watches a link's attempt as long as that, not a hosted page's day, so a payment no
 * notification announced (a link whose token a lost answer took) is still recorded.
 */
export function payableUntil(links: readonly PaymentLink[]): Date | undefined {
  const ends = links.map((link) => endOf(link.expirationDate ?? "")).filter(Number.isFinite)
  return ends.length ? new Date(Math.max(...ends)) : undefined
}

/** Paid wins over everything: money the gateway took stands, whatever the ledger says. */
export function linkStateOf(link: PaymentLink, cancelled: boolean, now: Date): LinkState {
  if (link.paidByOperationId) return "paid"
  if (cancelled) return "cancelled"
  const end = endOf(link.expirationDate ?? "")
  return Number.isFinite(end) && now.getTime() > end ? "expired" : "open"
}

/** What a customer who followed a link is told became of it (the store route of docs/storefront.md). */
export const LINK_OUTCOMES = ["paid", "pending", "declined", "cancelled", "expired"] as const
export type LinkOutcome = (typeof LINK_OUTCOMES)[number]

const CANCELLED_BY_THE_STORE = "The store cancelled this payment link."
const GIVEN_BACK = "The store had replaced or cancelled this payment link as it was paid: the payment is given back."
const EXPIRED = "This payment link has expired."

/**
 * The link's state first, then, for a link still open, its payment's status as the read model
 * (card-order.ts) gives it: a declined or abandoned payment leaves the link open at the
 * gateway. A payment on a link whose attempt is no longer owned (staff replaced or cancelled the
 * link as it was paid) is released by the sync, never recorded: the customer is told so.
 */
export function linkOutcomeOf(
  link: LinkState,
  payment: Pick<CardOrder, "status" | "reason">,
  owned: boolean,
): { status: LinkOutcome; reason?: string } {
  if (link === "paid" || payment.status === "authorized" || payment.status === "captured")
    return owned ? { status: "paid" } : { status: "cancelled", reason: GIVEN_BACK }
  if (link === "cancelled") return { status: "cancelled", reason: CANCELLED_BY_THE_STORE }
  if (link === "expired") return { status: "expired", reason: EXPIRED }
  if (payment.status === "error") return { status: "declined", ...(payment.reason ? { reason: payment.reason } : {}) }
  if (payment.status === "canceled")
    return { status: "cancelled", ...(payment.reason ? { reason: payment.reason } : {}) }
  return { status: "pending" }
}

/** Links the ledger records as cancelled at the gateway (an executed `link_cancellation`). */
function cancelledLinkIds(writes: readonly MoneyWrite[]): Set<string> {
  return new Set(
    writes
      .filter((write) => write.kind === "link_cancellation" && write.outcome === "executed" && write.target_ref)
      .map((write) => write.target_ref as string),
  )
}

/** Every link of one gateway order, in the words above. */
export function linkViewsOf(
  gatewayOrderId: string,
  currency: string,
  links: readonly PaymentLink[],
  writes: readonly MoneyWrite[],
  now: Date,
): LinkView[] {
  const cancelled = cancelledLinkIds(writes)
  return links.flatMap((link) =>
    link.linkId && link.link
      ? [
          {
            link_id: link.linkId,
            url: link.link,
            amount_minor: link.amount ?? "0",
            amount: minorToMajorString(link.amount ?? "0", currency),
            currency,
            expires_at: link.expirationDate ?? "",
            state: linkStateOf(link, cancelled.has(link.linkId), now),
            gateway_order_id: gatewayOrderId,
            ...(link.paidByOperationId ? { paid_by_operation_id: link.paidByOperationId } : {}),
          },
        ]
      : [],
  )
}

export interface LinkWriteDeps {
  gateway: GatewayClient
  ledger: PaymentLedger
}

export interface CreatedLink {
  link: PaymentLink & { linkId: string; link: string }
  /** Only when this call got the gateway's answer: a link found again after a lost answer comes without it. */
  securityToken?: string
}

/**
 * Creates the link of one attempt, at most once: recorded in the ledger before it is sent; a
 * lost answer, or a repeat by staff, is settled by reading the order's `paymentLinks`.
 */
export async function createLinkOnce(
  deps: LinkWriteDeps,
  request: PayByLinkRequest,
  medusaOrderId: string,
): Promise<CreatedLink> {
  const orderId = request.order.orderId
  const currency = request.order.currency
  // The link the gateway lists on the order, found by the order id its creation was sent under.
  const linkIdOf = (details: OrderDetails) => details.paymentLinks.find((link) => link.linkId && link.link)?.linkId
  const recover = new ByOrderId(deps.gateway, orderId, () => true, linkIdOf)
  let answered: CreatedLink | undefined
  const linkId = await sendOnce({
    ledger: deps.ledger,
    write: {
      kind: "link_creation",
      origin: "staff",
      idempotency_key: linkCreationKey(orderId),
      gateway_ref: orderId,
      amount_minor: request.order.amount,
      currency,
      // The order's links are found by it, whatever became of the sessions Medusa deletes.
      medusa_ref: medusaOrderId,
    },
    label: `payment link of gateway order ${orderId}`,
    action: "create the payment link",
    recover,
    send: async () => {
      const answer = await deps.gateway.createPaymentLink(request)
      answered = { link: answer.paymentLink, securityToken: answer.securityToken }
      return answer.paymentLink.linkId
    },
  })
  if (answered) return answered
  const link = (recover.found ?? (await deps.gateway.getOrder(orderId))).paymentLinks.find((l) => l.linkId === linkId)
  if (!link?.link) throw new NotFoundError("gateway", `The gateway no longer lists payment link ${linkId}`)
  return { link: { ...link, linkId, link: link.link } }
}

/**
 * Cancels an unpaid link at the gateway, at most once per link. Refused (an InvalidRequestError)
 * when the gateway says it was paid: that payment is then the sync's to record or release.
 */
export async function cancelLinkOnce(
  deps: LinkWriteDeps,
  link: Pick<LinkView, "link_id" | "gateway_order_id" | "amount_minor" | "currency">,
): Promise<void> {
  const cancel = async () => {
    await deps.gateway.cancelPaymentLink(link.link_id)
    return link.link_id
  }
  await sendOnce({
    ledger: deps.ledger,
    write: {
      kind: "link_cancellation",
      origin: "staff",
      idempotency_key: linkCancellationKey(link.link_id),
      gateway_ref: link.gateway_order_id,
      target_ref: link.link_id,
      amount_minor: link.amount_minor,
      currency: link.currency,
    },
    label: `cancellation of payment link ${link.link_id}`,
    action: "cancel the payment link",
    // A cancel takes no key and answers the same when repeated: the record of a lost one is a repeat.
    recover: new BySendingAgain(
      cancel,
      (error) => error instanceof InvalidRequestError || error instanceof NotFoundError,
    ),
    send: cancel,
  })
}

/**
 * Cancels the link created under a gateway order, if one was (a session of the payment link
 * channel Medusa deleted). A link the gateway says was paid is left: its payment, owned by no
 * session, is released by the sync.
 */
export async function cancelLinkOfAttempt(deps: LinkWriteDeps, gatewayOrderId: string): Promise<void> {
  const writes = await deps.ledger.writesOf(gatewayOrderId)
  const creation = writes.find((write) => write.kind === "link_creation" && write.outcome === "executed")
  if (!creation?.gateway_operation_id) return
  const link = {
    link_id: creation.gateway_operation_id,
    gateway_order_id: gatewayOrderId,
    amount_minor: creation.amount_minor,
    currency: creation.currency,
  }
  await cancelLinkOnce(deps, link).catch((error: unknown) => {
    if (!(error instanceof InvalidRequestError)) throw error
  })
}

/**
 * Nexi payment links for what an order owes (docs/admin.md, "Payment links"): staff create one,
 * see each link's state, and cancel one; an order cancelled cancels its open links.
 *
 * A link is one attempt of the staff pipeline (order-collection.ts) on the `payment_link`
 * channel: the session reserves a gateway order id, and the link is created under it
 * (core/card/payment-links.ts, sent once). The shopper's payment on the link is then that session's
 * payment, recorded by the one sync from the notification or the job (core/card/card-sync.ts), which
 * authorizes the session through the pipeline.
 *
 * One open link per order: a new link replaces the earlier ones, cancelled at the gateway. A
 * link that is no longer wanted has its attempt superseded in the ledger before the gateway
 * hears of the cancel, so a payment that slips in before the cancel is released, never recorded.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { readCardOrder } from "../core/card/card-order"
import { hashSecurityToken } from "../core/card/card-sessions"
import { buildHostedOrderRequest } from "../core/card/hosted-order"
import {
  cancelLinkOnce,
  createLinkOnce,
  type LinkOutcome,
  linkExpirationDate,
  linkOutcomeOf,
  linkViewsOf,
} from "../core/card/payment-links"
import { enabledWallet } from "../core/card/wallet-choice"
import { markPaymentSession } from "../core/medusa-payments"
import { storeEntryIdOf } from "../core/provider-ids"
import { CANCELLED_ORDER_NOTE, STAFF_CHANNEL_NOUNS, staffChannelOfSession } from "../core/staff-sessions"
import {
  cardProviderIdOf,
  gatewayClientFor,
  ledgerOf,
  merchantGateway,
  requireNexiOptions,
} from "../core/store-entries"
import { InvalidRequestError } from "../http/errors"
import type { PaymentAttempt } from "../modules/nexi-ledger/types"
import { minorMoneyText, toMinorUnits } from "../money/amount"
import { type OrderTargetField, owedNow } from "./collection-plan"
import type { NexiPaymentLink, NexiPaymentLinksResponse } from "./contract"
import { loadOrderToCollect, putBackOwed, startStaffAttempt, withCollectionLock } from "./order-collection"

const SUPERSEDED = "a payment link that was replaced or cancelled"

/** Creates a link for what the order owes (or a smaller amount), replacing its open links; answers the order's links. */
export async function createPaymentLink(
  container: MedusaContainer,
  input: { orderId: string; field: OrderTargetField; expiryDays: number; amount?: string; wallet?: unknown },
): Promise<NexiPaymentLinksResponse> {
  // Refused before anything is opened: a link for a wallet the gateway does not enable cannot be paid.
  const wallet =
    input.wallet === undefined
      ? undefined
      : enabledWallet(input.wallet, requireNexiOptions(container, await cardProviderIdOf(container)).wallets, "wallet")
  return withCollectionLock(container, input.orderId, "payment_link", async () => {
    // An expired link's session waits for a payment that can no longer come: never resumed.
    for (const link of await linksOfOrder(container, input.orderId))
      if (link.state === "expired") await stopRecording(container, link, "The payment link expired.")
    const attempt = await startStaffAttempt(container, { ...input, channel: "payment_link" })
    const options = requireNexiOptions(container, attempt.providerId)
    const gatewayOrderId = attempt.data.order_id
    const hosted = buildHostedOrderRequest({
      orderId: gatewayOrderId,
      sessionId: attempt.sessionId,
      amountMinor: attempt.amountMinor,
      currencyCode: attempt.currency,
      options,
      entryId: storeEntryIdOf(attempt.providerId),
      customerRef: attempt.order.customer_id ?? undefined,
      paymentLinkOf: input.orderId,
      wallet,
    })
    const gateway = gatewayClientFor(container, attempt.providerId)
    const ledger = ledgerOf(container)
    const created = await createLinkOnce(
      { gateway, ledger },
      { ...hosted, expirationDate: linkExpirationDate(input.expiryDays, new Date()) },
      input.orderId,
    )
    // Notifications are checked against this hash; a link found again after a lost answer has
    // no token, and its payment is then recorded by the job's read instead.
    if (created.securityToken)
      await ledger.updateAttempt(gatewayOrderId, { security_token_hash: hashSecurityToken(created.securityToken) })
    const links = await linksOfOrder(container, input.orderId)
    for (const earlier of links.filter((link) => link.state === "open" && link.link_id !== created.link.linkId))
      await retire(container, earlier)
    const amount = minorMoneyText(attempt.amountMinor, attempt.currency)
    return {
      order_id: input.orderId,
      payment_links: await linksOfOrder(container, input.orderId),
      message: `Payment link for ${amount} created: send it to the customer.`,
    }
  })
}

/** The order's links, newest first, with their state read from the gateway and the ledger. */
export async function paymentLinksOf(
  container: MedusaContainer,
  orderId: string,
  syncAttempt: (gatewayOrderId: string) => Promise<unknown>,
): Promise<NexiPaymentLinksResponse> {
  const links = await linksOfOrder(container, orderId)
  // A link the gateway shows paid whose payment no notification or job run recorded (the job
  // stops reading an attempt after a day): the one sync records it now, or releases it.
  const ledger = ledgerOf(container)
  let synced = false
  for (const link of links.filter((each) => each.state === "paid")) {
    const attempt = await ledger.findAttempt(link.gateway_order_id)
    if (attempt && attempt.state !== "paid" && attempt.state !== "released") {
      await syncAttempt(link.gateway_order_id)
      synced = true
    }
  }
  return { order_id: orderId, payment_links: synced ? await linksOfOrder(container, orderId) : links }
}

/**
 * The open link of one of the customer's orders, as the storefront may show it; a 404 for an
 * order that is not theirs, which tells a stranger nothing about whether it exists.
 */
export async function openLinkOfCustomerOrder(
  container: MedusaContainer,
  orderId: string,
  customerId: string,
): Promise<{ url: string; amount: string; currency_code: string; expires_at: string } | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "customer_id"], filters: { id: orderId } })
  const order = data[0] as { customer_id?: string | null } | undefined
  if (!order || !customerId || order.customer_id !== customerId)
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No order ${orderId} of this customer`)
  const open = (await linksOfOrder(container, orderId)).find((link) => link.state === "open")
  return open
    ? { url: open.url, amount: open.amount, currency_code: open.currency.toLowerCase(), expires_at: open.expires_at }
    : null
}

/** What the customer's page is told of a link: nothing its URL does not carry, no link, no gateway id, no token. */
export interface PaymentLinkOutcome {
  status: LinkOutcome
  /** Why it was declined, cancelled or expired, in the customer's words. */
  reason?: string
  /** What the link asks, in major units ("12.50"). */
  amount: string
  currency_code: string
  expires_at: string
}

/**
 * What became of the link the customer paid through `sessionId` (the link's pages carry it,
 * with the order): the gateway's order read once, through the read model. The link must be one
 * the ledger records for that order; anything else is the same 404 as a link that does not
 * exist, so the pair is what a page needs, and a session id alone reveals nothing.
 */
export async function paymentLinkOutcome(
  container: MedusaContainer,
  input: { orderId: string; sessionId: string },
): Promise<PaymentLinkOutcome> {
  const ledger = ledgerOf(container)
  const creations = await ledger.writesOfMedusaRef(input.orderId, "link_creation")
  let attempt: PaymentAttempt | undefined
  for (const creation of creations.filter((write) => write.outcome === "executed")) {
    const found = await ledger.findAttempt(creation.gateway_ref)
    if (found?.session_id === input.sessionId) attempt = found
  }
  const notFound = new MedusaError(MedusaError.Types.NOT_FOUND, "Payment link not found")
  if (!attempt) throw notFound
  const gateway = await merchantGateway(container)
  const [details, writes] = await Promise.all([
    gateway.getOrder(attempt.gateway_ref),
    ledger.writesOf(attempt.gateway_ref),
  ])
  const payment = readCardOrder(details)
  const currency = payment.currency || attempt.currency
  const [link] = linkViewsOf(attempt.gateway_ref, currency, details.paymentLinks, writes, new Date())
  if (!link) throw notFound
  const owned = attempt.state !== "superseded" && attempt.state !== "released"
  return {
    ...linkOutcomeOf(link.state, payment, owned),
    amount: link.amount,
    currency_code: currency.toLowerCase(),
    expires_at: link.expires_at,
  }
}

/** Staff cancel one open link of the order. */
export async function cancelPaymentLink(
  container: MedusaContainer,
  input: { orderId: string; linkId: string },
): Promise<NexiPaymentLinksResponse> {
  return withCollectionLock(container, input.orderId, "payment_link", async () => {
    const link = (await linksOfOrder(container, input.orderId)).find((each) => each.link_id === input.linkId)
    if (!link)
      throw new MedusaError(
        MedusaError.Types.NOT_FOUND,
        `link_id: order ${input.orderId} has no payment link ${input.linkId}`,
      )
    if (link.state !== "open")
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Payment link ${link.link_id} is ${link.state}: only an open link can be cancelled.`,
      )
    await retire(container, link)
    return {
      order_id: input.orderId,
      payment_links: await linksOfOrder(container, input.orderId),
      message: `Payment link ${link.link_id} cancelled: it can no longer be paid.`,
    }
  })
}

/**
 * An order cancelled (the order-cancel subscriber): no payment on any of its links is recorded
 * from now on, and its open links can no longer be paid. The links' attempts are superseded from
 * the ledger first, before any gateway read: a link paid just before the cancel whose notification
 * comes late, or one a failed read below leaves open, is then released by the sync, never recorded
 * on the cancelled order. A link's payment Medusa recorded while its cancel ran (after the cancel
 * had read the order's payments) is cancelled now, which voids it at the gateway.
 */
export async function cancelLinksOfOrder(container: MedusaContainer, orderId: string): Promise<void> {
  const ledger = ledgerOf(container)
  for (const creation of await ledger.writesOfMedusaRef(orderId, "link_creation")) {
    const attempt = await ledger.findAttempt(creation.gateway_ref)
    if (attempt?.session_id) await ledger.supersedeAttempts(attempt.session_id, undefined, CANCELLED_ORDER_NOTE)
  }
  await cancelPaymentsRecordedMeanwhile(container, orderId)
  const open = (await linksOfOrder(container, orderId)).filter((link) => link.state === "open")
  for (const link of open) await retire(container, link)
}

/**
 * An order edit confirmed (the order-edit subscriber): Medusa set what the order owes anew, so an
 * open link for another amount would collect the wrong money (more than is owed, after an edit
 * that lowered it). It is cancelled as staff cancel one; staff make a new link for what is owed.
 */
export async function cancelLinksOfEditedOrder(container: MedusaContainer, orderId: string): Promise<void> {
  await withCollectionLock(container, orderId, "payment_link", async () => {
    // Most edited orders have no open link: the order is read only when one is.
    const open = (await linksOfOrder(container, orderId)).filter((link) => link.state === "open")
    if (!open.length) return
    const order = await loadOrderToCollect(container, orderId, "order_id")
    const { owed } = owedNow(order, STAFF_CHANNEL_NOUNS.payment_link)
    const owedMinor = owed ? toMinorUnits(owed.amount, owed.currency) : "0"
    for (const link of open.filter((each) => each.amount_minor !== owedMinor)) await retire(container, link)
  })
}

/**
 * Medusa's cancel voids the uncaptured payments it read when it began; a staff session's payment
 * authorized after that read is left held on a cancelled order, its collection turned back to
 * authorized. Each is cancelled through Medusa (the provider voids it through the one sender),
 * and its collection cancelled again.
 */
async function cancelPaymentsRecordedMeanwhile(container: MedusaContainer, orderId: string): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.payments.*",
      "payment_collections.payments.captures.id",
    ],
    filters: { id: orderId },
  })
  type Collection = {
    id: string
    status: string
    payments?: Array<{
      id: string
      provider_id: string
      data?: Record<string, unknown>
      canceled_at?: unknown
      captures?: unknown[]
    }>
  }
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  for (const collection of (data[0] as { payment_collections?: Collection[] } | undefined)?.payment_collections ?? []) {
    const held = (collection.payments ?? []).filter(
      (payment) => !payment.canceled_at && !payment.captures?.length && staffChannelOfSession(payment.data),
    )
    for (const payment of held) await payments.cancelPayment(payment.id)
    if (held.length && collection.status !== "canceled")
      await payments.updatePaymentCollections(collection.id, { status: "canceled" } as never)
  }
}

/**
 * First the attempt is superseded (a payment that comes now is released, not recorded) and the
 * session marked cancelled; then the gateway cancels the link. A link the gateway says was paid
 * meanwhile stays paid: its payment, no longer owned, is released by the sync.
 */
async function retire(container: MedusaContainer, link: NexiPaymentLink): Promise<void> {
  await stopRecording(container, link, "The payment link was cancelled.")
  const ledger = ledgerOf(container)
  const gateway = await merchantGateway(container)
  try {
    await cancelLinkOnce({ gateway, ledger }, link)
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`nexi: payment link ${link.link_id} could not be cancelled (${error.message}); a payment on it is released`)
  }
}

/**
 * The link's attempt superseded (a payment on it is released, not recorded), its waiting session
 * cancelled with `reason`, and a collection set to the link's smaller amount owing all again.
 */
async function stopRecording(container: MedusaContainer, link: NexiPaymentLink, reason: string): Promise<void> {
  await ledgerOf(container).supersedeAttempts(link.session_id, undefined, SUPERSEDED)
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const waiting = (status: string) => status === "pending_authorization"
  if (await markPaymentSession(payments, link.session_id, "canceled", reason, waiting))
    await putBackOwed(container, link.session_id)
}

/** The order's links, newest first: each link's creation is recorded in the ledger under the Medusa order. */
async function linksOfOrder(container: MedusaContainer, orderId: string): Promise<Array<NexiPaymentLink>> {
  const ledger = ledgerOf(container)
  const creations = await ledger.writesOfMedusaRef(orderId, "link_creation")
  const made = creations.filter((write) => write.outcome === "executed").reverse()
  if (!made.length) return []
  const gateway = await merchantGateway(container)
  const now = new Date()
  const views: Array<NexiPaymentLink> = []
  for (const creation of made) {
    const [details, writes, attempt] = await Promise.all([
      gateway.getOrder(creation.gateway_ref),
      ledger.writesOf(creation.gateway_ref),
      ledger.findAttempt(creation.gateway_ref),
    ])
    const currency = details.orderStatus.order.currency ?? creation.currency
    for (const view of linkViewsOf(creation.gateway_ref, currency, details.paymentLinks, writes, now))
      views.push({ ...view, session_id: attempt?.session_id ?? "" })
  }
  return views
}

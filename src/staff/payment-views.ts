/**
 * What the admin shows of a Nexi payment: Medusa's side of it (the payment row with its captures
 * and refunds, found by payment id or through an order, and the totals Medusa holds for it), and
 * the payment read live from its service: a card payment from the gateway order its data names,
 * a mobile payment from its APM transaction, and the order page's view of all of an order's
 * payments (GET /admin/nexi/medusa-orders/:id/payments), each with what the ledger says needs
 * attention on it and the payments of the order's cart the plugin released.
 *
 * The views are the read models (src/core/card/card-order.ts, src/core/mobile/mobile-transaction.ts)
 * in the routes' contract (contract.ts), in exact major units. They decide nothing of their own:
 * amounts, what remains capturable and refundable, which capture may be cancelled, the card, the
 * order of the timeline and what undid what all come from the read model. The gateway still
 * refuses a cancel on a later day (PS0002): its day boundary is not documented, so that one is
 * left to the gateway and the dialog says so. The mobile service's amounts are whole minor units
 * ("hundredths"), as the provider sends them; an answer without the transaction shows the
 * session's own amount.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type BigNumber from "bignumber.js"
import type { ExtendedEnvelope } from "../apm/schemas"
import { type CardOrder, type CardOrderOperation, readCardOrder, type UndoKind } from "../core/card/card-order"
import { readCardSessionData } from "../core/card/card-sessions"
import { toMedusaError } from "../core/medusa-errors"
import { MONEY_ROW_FIELDS, type MoneyRow, totalOfRows } from "../core/medusa-records"
import { type ApmSessionData, readApmSessionData } from "../core/mobile/apm-session-data"
import { AFTER_REJECTION, isApmWrite } from "../core/mobile/apm-writes"
import { readMobileTransaction } from "../core/mobile/mobile-transaction"
import { apmMethodOfProvider, isNexiProviderId, nexiProviderName } from "../core/provider-ids"
import { isUnsettled, orphanedWrites } from "../core/send-once"
import { apmClientFor, gatewayClientFor, isNexiCardProviderId, ledgerOf } from "../core/store-entries"
import type { OrderDetails } from "../gateway/schemas"
import type { MoneyWrite, PaymentAttempt, WriteKind } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"
import {
  type OwingOrderRow,
  owedNow,
  owingOrderRow,
  PLAN_COLLECTION_FIELDS,
  PLAN_ORDER_FIELDS,
} from "./collection-plan"
import type {
  NexiCardPaymentView,
  NexiLedgerIssue,
  NexiMobilePaymentView,
  NexiMoney,
  NexiOrderPayment,
  NexiOrderPaymentsResponse,
  NexiPaymentView,
  NexiReleasedPayment,
  NexiTimelineOperation,
} from "./contract"

// Medusa's side; its totals are exact, in the payment's currency.

export interface NexiPaymentRecord {
  id: string
  provider_id: string
  currency_code: string
  data: Record<string, unknown> | null
  payment_session_id: string | null
  payment_collection_id: string | null
  captures: MoneyRow[]
  refunds: MoneyRow[]
}

const PAYMENT_FIELDS = [
  "id",
  "provider_id",
  "currency_code",
  "data",
  "payment_session_id",
  "payment_collection_id",
  ...MONEY_ROW_FIELDS,
]

function normalize(row: Record<string, unknown>): NexiPaymentRecord {
  return {
    ...(row as unknown as NexiPaymentRecord),
    captures: ((row.captures as MoneyRow[] | undefined) ?? []).filter(Boolean),
    refunds: ((row.refunds as MoneyRow[] | undefined) ?? []).filter(Boolean),
  }
}

/** The Nexi payment `paymentId`, or 404; another provider's payment is a 400 naming it. */
export async function loadNexiPayment(container: MedusaContainer, paymentId: string): Promise<NexiPaymentRecord> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: PAYMENT_FIELDS, filters: { id: paymentId } })
  const row = data[0] as Record<string, unknown> | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `id: no payment ${paymentId}`)
  if (!isNexiProviderId(row.provider_id)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `id: payment ${paymentId} was made with ${String(row.provider_id)}, not a Nexi provider`,
    )
  }
  return normalize(row)
}

/** The order as the collection plan reads it, with every Nexi payment of it, oldest collection first; 404 for an unknown order. */
async function nexiPaymentsOfOrder(
  container: MedusaContainer,
  orderId: string,
): Promise<{ order: OwingOrderRow; records: NexiPaymentRecord[] }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      ...PLAN_ORDER_FIELDS,
      ...PLAN_COLLECTION_FIELDS.map((field) => `payment_collections.${field}`),
      ...PAYMENT_FIELDS.map((field) => `payment_collections.payments.${field}`),
    ],
    filters: { id: orderId },
  })
  const row = data[0] as Record<string, unknown> | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `id: no order ${orderId}`)
  const order = owingOrderRow(row)
  const records = order.payment_collections
    .flatMap((collection) => (collection as { payments?: Record<string, unknown>[] }).payments ?? [])
    .filter((payment) => payment && isNexiProviderId(payment.provider_id))
    .map(normalize)
  return { order, records }
}

/** What Medusa has recorded as captured and refunded on the payment, in major units. */
export function medusaTotals(payment: NexiPaymentRecord): { captured: BigNumber; refunded: BigNumber } {
  return { captured: totalOfRows(payment.captures), refunded: totalOfRows(payment.refunds) }
}

// A card payment.

export interface PaymentIdentity {
  payment_id: string
  provider_id: string
}

/** The words for both ends of an undo. */
const UNDO_WORDS: Record<UndoKind, { undoes: string; undoneBy: string }> = {
  cancel: { undoes: "Cancels", undoneBy: "Cancelled by" },
  void: { undoes: "Voids", undoneBy: "Voided by" },
}

function money(minor: string, currency: string): NexiMoney {
  return { amount: minorToMajorString(minor, currency), currency }
}

/** `minor` as money when above zero: a remainder of nothing offers nothing. */
function remainder(minor: string, currency: string): NexiMoney | null {
  return BigInt(minor) > 0n ? money(minor, currency) : null
}

/** What this operation undid or tried to ("Cancels 123"), or what undid it ("Cancelled by 456"). */
function noteOf({ operation, undoKind, undoneBy }: CardOrderOperation): string | null {
  if (undoKind && operation.cancelledOperationId)
    return `${UNDO_WORDS[undoKind].undoes} ${operation.cancelledOperationId}`
  return undoneBy ? `${UNDO_WORDS[undoneBy.kind].undoneBy} ${undoneBy.operationId}` : null
}

function timelineOperation(entry: CardOrderOperation, order: CardOrder): NexiTimelineOperation {
  const { operation } = entry
  const id = operation.operationId ?? ""
  const currency = operation.operationCurrency ?? order.currency
  return {
    operation_id: id,
    type: operation.operationType ?? "UNKNOWN",
    result: operation.operationResult ?? "UNKNOWN",
    amount: operation.operationAmount === undefined ? null : money(operation.operationAmount, currency),
    time: operation.operationTime ?? null,
    channel: operation.channel ?? null,
    cancelled_operation_id: entry.undoKind ? operation.cancelledOperationId || null : null,
    note: noteOf(entry),
    warnings: (operation.warnings ?? []).map(({ code, description }) => ({ code, description })),
    cancellable: id !== "" && id === order.cancellableCaptureId,
  }
}

export function cardPaymentView(identity: PaymentIdentity, details: OrderDetails): NexiCardPaymentView {
  const order = readCardOrder(details)
  const { currency } = order
  return {
    kind: "card",
    ...identity,
    provider_name: nexiProviderName(identity.provider_id),
    gateway_order_id: order.orderId,
    circuit: order.paymentInstrument?.circuit ?? null,
    masked_card: order.paymentInstrument?.maskedPan ?? null,
    three_ds: order.threeDS ?? null,
    authorized: money(order.authorizedMinor, currency),
    captured: money(order.capturedMinor, currency),
    refunded: money(order.refundedMinor, currency),
    last_operation_type: details.orderStatus.lastOperationType ?? null,
    capturable: remainder(order.capturableMinor, currency),
    refundable: remainder(order.refundableMinor, currency),
    operations: order.operations.map((entry) => timelineOperation(entry, order)),
  }
}

// A mobile payment.

export function mobilePaymentView(
  identity: PaymentIdentity,
  data: Partial<ApmSessionData>,
  envelope: ExtendedEnvelope,
): NexiMobilePaymentView {
  const transaction = readMobileTransaction(envelope)
  const held =
    transaction.amount ??
    (data.amount_minor && data.currency ? { minor: data.amount_minor, currency: data.currency } : undefined)
  return {
    kind: "mobile",
    ...identity,
    provider_name: nexiProviderName(identity.provider_id),
    scheme: data.method ?? transaction.method ?? "unknown",
    transaction_id: transaction.transactionId ?? data.transaction_id ?? "",
    state: transaction.transactionState ?? null,
    amount: held ? money(held.minor, held.currency) : null,
    transitions: transaction.transitions.map((transition) => ({
      from: transition.from ?? null,
      to: transition.to ?? null,
      event: transition.event ?? null,
      time: transition.timeStamp ?? null,
    })),
  }
}

// Read live.

/** The gateway order behind a card payment (its data.order_id). */
export async function gatewayOrderOf(container: MedusaContainer, payment: NexiPaymentRecord): Promise<OrderDetails> {
  const orderId = readCardSessionData(payment.data ?? undefined).order_id
  if (!orderId) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Payment ${payment.id} has no gateway order id in its data.`,
    )
  }
  try {
    return await gatewayClientFor(container, payment.provider_id).getOrder(orderId)
  } catch (error) {
    throw toMedusaError(error, `read gateway order ${orderId} of payment ${payment.id}`)
  }
}

export async function readPaymentView(
  container: MedusaContainer,
  payment: NexiPaymentRecord,
): Promise<NexiPaymentView> {
  const identity = { payment_id: payment.id, provider_id: payment.provider_id }
  if (isNexiCardProviderId(payment.provider_id)) {
    return cardPaymentView(identity, await gatewayOrderOf(container, payment))
  }
  const data = readApmSessionData(payment.data ?? undefined)
  if (!data.transaction_id) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Payment ${payment.id} has no transaction id in its data.`,
    )
  }
  try {
    const envelope = await apmClientFor(container, payment.provider_id).getTransaction(
      data.transaction_id,
      data.next_link,
    )
    return mobilePaymentView(identity, data, envelope)
  } catch (error) {
    throw toMedusaError(error, `read transaction ${data.transaction_id} of payment ${payment.id}`)
  }
}

// The order page.

/**
 * The collections Medusa's createOrUpdateOrderPaymentCollectionWorkflow cancels, with their
 * payments, when an order edit that leaves money owed is confirmed (M#14984): authorized and
 * nothing captured yet. The plugin then voids the authorization at the gateway.
 */
const CANCELLED_BY_AN_EDIT = new Set(["authorized", "partially_authorized"])

/** One cart is released at most a handful of times (once per extra payment); this bounds a pathological one. */
const RELEASED_PER_ORDER = 50

/** The ledger's key of a payment: its gateway order (card) or its service transaction (mobile). */
function gatewayRefOf(view: NexiPaymentView): string {
  return view.kind === "card" ? view.gateway_order_id : view.transaction_id
}

export async function orderPaymentsView(
  container: MedusaContainer,
  orderId: string,
): Promise<NexiOrderPaymentsResponse> {
  const { order, records } = await nexiPaymentsOfOrder(container, orderId)
  const ledger = ledgerOf(container)
  const payments = await Promise.all(
    records.map(async (record): Promise<NexiOrderPayment> => {
      const view = await readPaymentView(container, record)
      const heldRows = new Set([record.id, ...record.refunds.map((refund) => refund.id)])
      const now = new Date()
      return { ...view, ledger_issues: ledgerIssuesOf(await ledger.writesOf(gatewayRefOf(view)), now, heldRows) }
    }),
  )
  // The cart the order was placed from; none for an order that had none (a draft order).
  const [cartRow] = await orderCartRows(container, { order_id: [orderId] })
  const cartId = cartRow?.cart_id
  const released = cartId ? await releasedPayments(container, { cartIds: [cartId], limit: RELEASED_PER_ORDER }) : []
  const withNexi = new Set(records.map((record) => record.payment_collection_id))
  return {
    order_id: orderId,
    payments,
    released_payments: released,
    owed: owedNow(order, "payment by staff").owed,
    edit_cancels_authorization: order.payment_collections.some(
      (collection) => withNexi.has(collection.id) && CANCELLED_BY_AN_EDIT.has(collection.status),
    ),
  }
}

// Which Medusa order a cart became, and the reverse. Medusa 2 keeps no cart_id on the order:
// completing a cart writes a row of the order<->cart link (`order_cart`), which Query reads
// like any entity, filtered on its own columns.

interface OrderCartRow {
  order_id: string
  cart_id: string
}

async function orderCartRows(
  container: MedusaContainer,
  filters: Partial<Record<keyof OrderCartRow, string[]>>,
): Promise<OrderCartRow[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id", "cart_id"], filters })
  return data as OrderCartRow[]
}

/** cart id -> the order it became, for the carts that became one. */
async function ordersOfCarts(container: MedusaContainer, cartIds: readonly string[]): Promise<Map<string, string>> {
  if (!cartIds.length) return new Map()
  const rows = await orderCartRows(container, { cart_id: [...new Set(cartIds)] })
  return new Map(rows.map((row) => [row.cart_id, row.order_id]))
}

/**
 * A payment the plugin released by itself (voided or refunded at the gateway because its money
 * arrived for a cart that no longer wanted it), with the Medusa order its cart became, so staff
 * can tell the shopper which order it was about.
 */
function releasedPaymentView(attempt: PaymentAttempt, orderId: string | null): NexiReleasedPayment {
  const currency = attempt.currency.toUpperCase()
  return {
    gateway_ref: attempt.gateway_ref,
    kind: apmMethodOfProvider(attempt.provider_identifier) ? "mobile" : "card",
    provider_identifier: attempt.provider_identifier,
    cart_id: attempt.cart_id,
    order_id: orderId,
    amount: minorToMajorString(attempt.amount_minor, currency),
    currency,
    released_at: attempt.released_at ? new Date(attempt.released_at).toISOString() : null,
    note: attempt.note,
  }
}

/** The released payments, newest first; of the given carts only, when given (an order page asks for its own cart's). */
export async function releasedPayments(
  container: MedusaContainer,
  filter: { limit: number; cartIds?: string[] },
): Promise<NexiReleasedPayment[]> {
  const attempts = await ledgerOf(container).releasedAttempts(filter)
  const cartIds = attempts.flatMap((attempt) => (attempt.cart_id ? [attempt.cart_id] : []))
  const orders = await ordersOfCarts(container, cartIds)
  return attempts.map((attempt) =>
    releasedPaymentView(attempt, (attempt.cart_id && orders.get(attempt.cart_id)) || null),
  )
}

/*
 * Ledger issues: what the ledger knows about a payment that staff must see on the order page,
 * because the gateway's own record does not show it (yet):
 *
 * - a write whose answer was lost (outcome `unknown`), or that was sent and never settled
 *   (`requested` for longer than a request can take): its money may or may not have moved,
 *   and repeating it by hand could move it twice. The reconciliation job settles it.
 * - a mobile refund or reversal the scheme rejected after accepting it: Medusa has already
 *   recorded it, but the shopper did not get the money.
 * - a mobile refund or reversal the scheme has not settled yet.
 * - a capture or refund whose Medusa record outlived the process that sent it (killed
 *   mid-call), sent again under its own key and refused by the gateway: Medusa shows money
 *   that did not move (the write is `refused` and claimed by that record; core/send-once.ts).
 * - a mobile refund the service made whose Medusa refund Medusa dropped (its answer was lost,
 *   or Medusa's own update failed after it), taken over by no later refund: the shopper has
 *   money back that Medusa does not show. A card refund like it is recorded from the order's
 *   operations; the mobile payment service lists no refunds, so only staff can record it (a
 *   refund of the same amount).
 *
 * Pure over the ledger's writes (ledgerIssuesOf), so every sentence is unit-testable.
 */

/** How staff name each kind of write, and what they must not do again while its outcome is unknown. */
const WORDS: Record<WriteKind, { noun: string; repeat: string }> = {
  capture: { noun: "Capture", repeat: "capture" },
  refund: { noun: "Refund", repeat: "refund" },
  void: { noun: "Void", repeat: "void" },
  cancel_capture: { noun: "Cancellation of a capture", repeat: "cancel the capture" },
  moto: { noun: "MOTO payment", repeat: "charge the card" },
  apm_refund: { noun: "Refund", repeat: "refund" },
  apm_reversal: { noun: "Reversal", repeat: "reverse or refund" },
  // Listed with the saved card (customer-saved-cards.ts), never with a payment: it belongs to no order.
  contract_deactivation: { noun: "Deactivation of a saved card", repeat: "delete the card" },
  mit_charge: { noun: "Charge of a saved card", repeat: "charge the saved card" },
  link_creation: { noun: "Payment link", repeat: "create another link" },
  link_cancellation: { noun: "Cancellation of a payment link", repeat: "cancel the link" },
  apm_payment: { noun: "Mobile payment", repeat: "start the payment" },
  build_finalize: { noun: "Card payment in the checkout's fields", repeat: "ask the shopper to pay" },
  // Belongs to no order, so it is never listed with a payment.
  card_verification: { noun: "Card verification", repeat: "verify the card" },
}

/** Held by none of the payment's own rows (`heldRows`: the payment and its refunds): Medusa dropped its holder. */
function heldByDroppedRow(write: MoneyWrite, heldRows: ReadonlySet<string> | undefined): boolean {
  return (
    heldRows !== undefined &&
    write.outcome === "executed" &&
    write.claimed_by !== null &&
    write.follow_state !== "rejected" &&
    !heldRows.has(write.claimed_by)
  )
}

function problemOf(
  write: MoneyWrite,
  now: Date,
  heldRows: ReadonlySet<string> | undefined,
): NexiLedgerIssue["problem"] | undefined {
  // Rejected first: a rejected write's outcome is settled, and its consequence is the graver.
  if (write.follow_state === "rejected") return "scheme_rejected"
  if (isUnsettled(write, now)) return "outcome_unknown"
  if (write.follow_state === "following") return "scheme_pending"
  if (write.outcome === "refused" && write.claimed_by) return "refused_with_record"
  if (orphanedWrites([write], "apm_refund").length) return "unrecorded_refund"
  if (write.kind === "apm_refund" && heldByDroppedRow(write, heldRows)) return "unrecorded_refund"
  return undefined
}

function sentence(write: MoneyWrite, problem: NexiLedgerIssue["problem"], money: string): string {
  const { noun, repeat } = WORDS[write.kind]
  switch (problem) {
    case "outcome_unknown":
      return `${noun} of ${money}: the gateway's answer was lost and its outcome is not known yet; do not ${repeat} again, the plugin checks every minute.`
    case "scheme_rejected": {
      const reason = write.message ? `: ${write.message}` : ""
      const left = isApmWrite(write) ? AFTER_REJECTION[write.kind].consequence : "the money did not move"
      return `${noun} of ${money} was rejected by the scheme${reason}; ${left}.`
    }
    case "refused_with_record": {
      const reason = write.message ? ` (${write.message})` : ""
      return `${noun} of ${money} is recorded in Medusa (${write.claimed_by}), but the gateway refused to make it${reason}; the money did not move — ${repeat} again at the gateway or correct Medusa's record.`
    }
    case "unrecorded_refund":
      return `${noun} of ${money} was made by the mobile payment service, but Medusa does not show it: Medusa dropped its refund (its answer was lost, or Medusa's own update failed). The shopper has the money back; refunding the same amount in Medusa records it without refunding again.`
    case "scheme_pending":
      return `${noun} of ${money} is not settled by the scheme yet; the plugin checks every minute and shows here if the scheme rejects it.`
  }
}

/**
 * The writes that need attention, oldest first (the ledger's order).
 * @param heldRows the ids of the payment and its Medusa refunds, when known
 */
export function ledgerIssuesOf(
  writes: readonly MoneyWrite[],
  now: Date,
  heldRows?: ReadonlySet<string>,
): NexiLedgerIssue[] {
  return writes.flatMap((write) => {
    const problem = problemOf(write, now, heldRows)
    if (!problem) return []
    const currency = write.currency.toUpperCase()
    const amount = { amount: minorToMajorString(write.amount_minor, currency), currency }
    return [
      {
        write_id: write.id,
        kind: write.kind,
        problem,
        amount,
        requested_at: new Date(write.created_at).toISOString(),
        message: sentence(write, problem, `${amount.amount} ${currency}`),
      },
    ]
  })
}

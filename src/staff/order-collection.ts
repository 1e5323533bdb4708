/**
 * The one pipeline by which staff collect what an order owes, whatever the channel: a MOTO
 * payment (card-entry.ts), a charge of a saved card (saved-card-charge.ts) or a payment link.
 *
 * 1. What to collect comes from the Medusa order (collection-plan.ts), never from the request.
 * 2. The order's payment collection is the unpaid one, or Medusa's own
 *    createOrUpdateOrderPaymentCollection workflow creates it (or sets it to what is owed).
 * 3. The payment is a session of the card provider on that collection, created through
 *    Medusa's createPaymentSessions workflow with the staff channel in its server-only context:
 *    the provider reserves this attempt's gateway order id and starts no hosted page
 *    (core/staff-sessions.ts). A waiting session of the same channel and amount is resumed, so
 *    a repeat after a lost answer reads the same gateway order instead of charging another.
 * 4. Once the gateway holds the payment under that id, the session is authorized through
 *    Medusa's authorizePaymentSessionForOrder workflow (the provider reads the gateway order),
 *    and a draft order is converted (`authorizeStaffSessionOnce` in core/staff-sessions.ts,
 *    which the sync shares for a paid link). A charge staff make at once (MOTO, saved card) is
 *    sent and recorded here (`chargeOnce`). A refused payment marks the session failed, so the
 *    next attempt gets a new session and a new gateway order id.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import {
  createOrUpdateOrderPaymentCollectionWorkflow,
  createPaymentSessionsWorkflow,
} from "@medusajs/medusa/core-flows"
import { readCardOrder } from "../core/card/card-order"
import { cardSyncFor } from "../core/card/card-sync"
import { isCharged, operationIdOf, staffChargeRecovery } from "../core/card/card-writes"
import { idempotencyUuid } from "../core/idempotency"
import { markPaymentSession } from "../core/medusa-payments"
import { withLock } from "../core/payment-lock"
import { NotMadeError, sendOnce } from "../core/send-once"
import {
  authorizeStaffSessionOnce,
  NO_LONGER_OWNED,
  STAFF_CHANNEL_CONTEXT_KEY,
  STAFF_CHANNEL_NOUNS,
  type StaffChannel,
  type StaffSessionData,
} from "../core/staff-sessions"
import { cardProviderIdOf, gatewayClientFor, ledgerOf } from "../core/store-entries"
import type { GatewayClient } from "../gateway/gateway-client"
import type { MotoRequest, OperationResponse, Order, OrderDetails } from "../gateway/schemas"
import { InvalidRequestError } from "../http/errors"
import type { WriteKind } from "../modules/nexi-ledger/types"
import { minorMoneyText, minorToMajorString, toMinorUnits } from "../money/amount"
import {
  type CollectionPlan,
  type CollectionRow,
  type OrderTargetField,
  type OwingOrderRow,
  owedByPlan,
  owedNow,
  owingOrderRow,
  PLAN_COLLECTION_FIELDS,
  PLAN_ORDER_FIELDS,
  planCollection,
  resumableSession,
  smallerAmountMinor,
} from "./collection-plan"
import type { NexiCardPaymentView, NexiOwingOrdersResponse, NexiStaffChargeResponse } from "./contract"
import { cardPaymentView } from "./payment-views"

export interface OrderToCollect extends OwingOrderRow {
  email?: string | null
  customer_id?: string | null
}

/** One attempt to collect: the order, its collection, and the session holding this attempt's gateway order id. */
export interface StaffAttempt {
  channel: StaffChannel
  order: OrderToCollect
  plan: CollectionPlan
  providerId: string
  collection: CollectionRow
  /** Upper-case ISO 4217 code, as the gateway takes it. */
  currency: string
  amountMinor: string
  sessionId: string
  data: StaffSessionData
}

/**
 * The gateway order of a staff charge (MOTO, a saved card's): the attempt's order id and amount;
 * as on hosted orders, the back office and notifications point back to the session.
 */
export function staffGatewayOrder(attempt: StaffAttempt, description: string): Order {
  const { data } = attempt
  const order = { orderId: data.order_id, amount: data.amount_minor, currency: data.currency }
  return { ...order, customField: attempt.sessionId, description }
}

const COLLECTION_FIELDS = [
  ...PLAN_COLLECTION_FIELDS,
  "payment_sessions.id",
  "payment_sessions.provider_id",
  "payment_sessions.status",
  "payment_sessions.data",
]

/** One staff collection of an order at a time, whatever the channel: two at once could both collect what it owes. */
export function withCollectionLock<T>(
  container: MedusaContainer,
  orderId: string,
  channel: StaffChannel,
  job: () => Promise<T>,
): Promise<T> {
  return withLock(
    container,
    `nexi-collect:${orderId}`,
    `A ${STAFF_CHANNEL_NOUNS[channel]} or another payment by staff for this order is already under way.`,
    job,
  )
}

/**
 * Steps 1 to 3: the attempt to collect what the order owes through `channel`, or `amount`
 * (major units, as staff typed it) when that is less: the collection is then set to it, so
 * Medusa records exactly what was collected.
 */
export async function startStaffAttempt(
  container: MedusaContainer,
  input: { orderId: string; field: OrderTargetField; channel: StaffChannel; amount?: string },
): Promise<StaffAttempt> {
  const order = await loadOrderToCollect(container, input.orderId, input.field)
  const plan = planCollection(order, input.field, STAFF_CHANNEL_NOUNS[input.channel])
  // Medusa's workflow below creates or resizes the collection: an amount it would refuse must
  // be refused before, against what the order owes, so that bad input changes nothing.
  if (input.amount !== undefined)
    smallerAmountMinor(input.amount, owedByPlan(order, plan), order.currency_code.toUpperCase(), plan.isDraft)
  const providerId = await cardProviderIdOf(container)
  let collection = await collectionOf(container, order.id, plan)
  const currency = collection.currency_code.toUpperCase()
  const owedBefore = collection.amount
  // Checked again against the collection as Medusa now holds it (the order may have been edited
  // since it was read): it decides whether to resize, and never beyond what is owed.
  const smaller =
    input.amount === undefined ? undefined : smallerAmountMinor(input.amount, owedBefore, currency, plan.isDraft)
  if (smaller !== undefined) collection = await resizeCollection(container, collection, smaller, currency)
  const amountMinor = toMinorUnits(collection.amount, currency)
  const session =
    resumableSession(collection, providerId, amountMinor, input.channel) ??
    (await startStaffSession(container, collection.id, providerId, input.channel))
  if (smaller !== undefined)
    await rememberOwed(container, collection.id, {
      amount: amountOf({ amount: owedBefore }).toString(),
      session_id: session.id,
    })
  return {
    channel: input.channel,
    order,
    plan,
    providerId,
    collection,
    currency,
    amountMinor,
    sessionId: session.id,
    data: session.data as StaffSessionData,
  }
}

/**
 * A collection staff set to a smaller amount remembers, in its metadata, what it owed before and
 * the session collecting the smaller amount: when that session ends unpaid (declined, a link
 * cancelled or expired), the collection owes all of it again, or the next link would ask for
 * the smaller amount and the rest would never be collected.
 */
const OWED_BEFORE_KEY = "nexi_owed_before"

async function rememberOwed(
  container: MedusaContainer,
  collectionId: string,
  owed: { amount: string; session_id: string },
) {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const collection = await payment.retrievePaymentCollection(collectionId, { select: ["id", "metadata"] })
  await payment.updatePaymentCollections(collectionId, {
    metadata: { ...collection.metadata, [OWED_BEFORE_KEY]: owed },
  })
}

/**
 * Puts back what the collection owed before `sessionId` was to collect less. Left alone when
 * the collection changed since (an order edit set it to what the order owes now).
 */
export async function putBackOwed(container: MedusaContainer, sessionId: string): Promise<void> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [session] = await payment.listPaymentSessions(
    { id: sessionId },
    { select: ["id", "amount", "raw_amount", "payment_collection_id"], withDeleted: true },
  )
  if (!session) return
  const collection = await payment.retrievePaymentCollection(session.payment_collection_id, {
    select: ["id", "amount", "raw_amount", "metadata"],
  })
  const owed = collection.metadata?.[OWED_BEFORE_KEY] as { amount?: string; session_id?: string } | undefined
  if (owed?.session_id !== sessionId || !owed.amount) return
  const { [OWED_BEFORE_KEY]: _, ...metadata } = collection.metadata ?? {}
  const unchanged = MathBN.eq(amountOf(collection), amountOf(session))
  await payment.updatePaymentCollections(collection.id, {
    metadata,
    ...(unchanged ? { amount: owed.amount as never } : {}),
  })
}

function amountOf(row: { amount: unknown; raw_amount?: unknown }) {
  return MathBN.convert((row.raw_amount ?? row.amount) as never)
}

async function resizeCollection(
  container: MedusaContainer,
  collection: CollectionRow,
  amountMinor: string,
  currency: string,
): Promise<CollectionRow> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  await payment.updatePaymentCollections(collection.id, { amount: minorToMajorString(amountMinor, currency) as never })
  return readCollection(container, collection.id)
}

export async function loadOrderToCollect(
  container: MedusaContainer,
  orderId: string,
  field: OrderTargetField,
): Promise<OrderToCollect> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      ...PLAN_ORDER_FIELDS,
      "email",
      "customer_id",
      ...COLLECTION_FIELDS.map((name) => `payment_collections.${name}`),
    ],
    filters: { id: orderId },
  })
  const row = data[0] as Record<string, unknown> | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `${field}: no order ${orderId}`)
  return owingOrderRow<OrderToCollect>(row)
}

/**
 * How many of the newest orders (matching the search) are read to find the ones that owe: an
 * order owes for a short while, so those are among the newest; a search finds an older one.
 */
const OWING_SCAN = 100

/**
 * The newest orders, matching `search` (Medusa's order search: number, email, names on the
 * addresses) when given, that owe money staff may collect now: what the MOTO form offers for an
 * order with an unpaid balance. An order whose payment is authorized counts as paid.
 */
export async function ordersOwing(
  container: MedusaContainer,
  search: string,
  limit: number,
): Promise<NexiOwingOrdersResponse["orders"]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      ...PLAN_ORDER_FIELDS,
      ...PLAN_COLLECTION_FIELDS.map((name) => `payment_collections.${name}`),
      "email",
      "shipping_address.first_name",
      "shipping_address.last_name",
    ],
    filters: { is_draft_order: false, ...(search ? { q: search } : {}) },
    pagination: { take: OWING_SCAN, order: { created_at: "DESC" } },
  })
  const owing: NexiOwingOrdersResponse["orders"] = []
  for (const row of data as Record<string, unknown>[]) {
    const order = owingOrderRow<OrderToCollect>(row)
    const { owed } = owedNow(order, STAFF_CHANNEL_NOUNS.moto)
    if (!owed || !order.display_id) continue
    const address = row.shipping_address as { first_name?: string | null; last_name?: string | null } | null
    const name = [address?.first_name, address?.last_name].filter(Boolean).join(" ")
    owing.push({
      id: order.id,
      display_id: order.display_id,
      email: order.email ?? null,
      customer_name: name || null,
      owed,
    })
    if (owing.length === limit) break
  }
  return owing
}

/** The collection the plan names, or the one Medusa's workflow creates (or sets to what is owed). */
async function collectionOf(container: MedusaContainer, orderId: string, plan: CollectionPlan): Promise<CollectionRow> {
  if (plan.collection === "use") return readCollection(container, plan.collectionId)
  const { result } = await createOrUpdateOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId } })
  const collection = (Array.isArray(result) ? result[0] : result) as { id?: string } | undefined
  if (!collection?.id)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Medusa created no payment collection for order ${orderId}.`,
    )
  return readCollection(container, collection.id)
}

async function readCollection(container: MedusaContainer, id: string): Promise<CollectionRow> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_collection", fields: COLLECTION_FIELDS, filters: { id } })
  const row = data[0] as (CollectionRow & { raw_amount?: CollectionRow["amount"] }) | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `No payment collection ${id}`)
  return { ...row, amount: row.raw_amount ?? row.amount }
}

/** A session of the card provider that reserves a gateway order id for `channel` and starts no hosted page. */
async function startStaffSession(
  container: MedusaContainer,
  collectionId: string,
  providerId: string,
  channel: StaffChannel,
): Promise<{ id: string; data: Record<string, unknown> }> {
  const { result } = await createPaymentSessionsWorkflow(container).run({
    input: {
      payment_collection_id: collectionId,
      provider_id: providerId,
      data: {},
      context: { [STAFF_CHANNEL_CONTEXT_KEY]: channel },
    },
  })
  return result as { id: string; data: Record<string, unknown> }
}

/*
 * Step 4 of a charge staff make at once under the attempt's gateway order id (`chargeOnce`).
 *
 * Never charged twice, whatever is lost on the way: the charge goes through the one sender
 * (core/send-once.ts), found again by its order id (core/card/card-writes.ts). The order id
 * is fixed per attempt and the gateway refuses one it has seen; a repeat after a lost answer
 * (by the transport, or by staff sending the request again) first reads the gateway's order
 * for that id, and records the charge found there instead of charging again. A declined card
 * changes nothing in Medusa but the session, marked failed.
 */
export interface StaffChargeRequest {
  attempt: StaffAttempt
  kind: Extract<WriteKind, "moto" | "mit_charge">
  /** What Medusa's staff asked for, for messages: "take the MOTO payment". */
  action: string
  /** The order the request opens, as the gateway's record of an answered charge. */
  order: MotoRequest["order"]
  /** Sends the charge under `idempotencyKey`, the one key of this attempt's charge. */
  send(gateway: GatewayClient, idempotencyKey: string): Promise<OperationResponse>
  /** What staff see when the request fails without a decline (card data refused, gateway down). */
  requestError(error: unknown): Error
  /** The card as staff know it, for the answer's sentence: "VISA ***7289". */
  cardText(payment: NexiCardPaymentView): string
  /** How it was charged, appended to the card in that sentence: " by MOTO", or nothing. */
  how: string
}

/** The card was declined: the gateway answered, and charged nothing. */
class CardNotAccepted extends NotMadeError {
  constructor(readonly reason: string | undefined) {
    super(reason ?? "The card was not accepted.")
  }
}

export async function chargeOnce(
  container: MedusaContainer,
  request: StaffChargeRequest,
): Promise<NexiStaffChargeResponse> {
  const { attempt } = request
  const orderId = attempt.data.order_id
  const gateway = gatewayClientFor(container, attempt.providerId)
  const recover = staffChargeRecovery(gateway, orderId)
  // One charge per staff attempt: its session is new for each attempt, and a retry reuses it.
  const idempotencyKey = idempotencyUuid(`${request.kind}:${attempt.order.id}:${attempt.sessionId}`)
  let answered: OrderDetails | undefined
  await sendOnce({
    ledger: ledgerOf(container),
    write: {
      kind: request.kind,
      origin: "staff",
      idempotency_key: idempotencyKey,
      gateway_ref: orderId,
      amount_minor: attempt.amountMinor,
      currency: attempt.currency,
      medusa_ref: attempt.sessionId,
    },
    label: `${STAFF_CHANNEL_NOUNS[attempt.channel]} of ${minorMoneyText(attempt.amountMinor, attempt.currency)}`,
    action: request.action,
    recover,
    send: async () => {
      const { operation } = await request.send(gateway, idempotencyKey)
      answered = { orderStatus: { order: request.order }, operations: [operation], paymentLinks: [] }
      const state = readCardOrder(answered)
      if (!isCharged(state)) throw new CardNotAccepted(state.reason)
      return operationIdOf(operation)
    },
  }).catch(async (error) => {
    if (error instanceof CardNotAccepted) {
      await markSessionFailed(container, attempt, error.reason ?? "The card was not accepted.")
      throw new MedusaError(
        MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
        `The card was not accepted: ${error.reason ?? "no reason given."}`,
      )
    }
    if (error instanceof InvalidRequestError)
      await markSessionFailed(container, attempt, "The gateway refused the request.")
    throw request.requestError(error)
  })
  // Answered from the ledger (an earlier request charged it): the gateway's record says how.
  const charged = answered ?? recover.found ?? (await gateway.getOrder(orderId))
  const state = readCardOrder(charged)
  if (state.status === "pending") {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The gateway has not finished the charge of gateway order ${orderId} yet. Send the same request again shortly: it reads the gateway first and never charges twice.`,
    )
  }
  const recorded = await authorizeStaffSessionOnce(container, attempt.sessionId, orderId)
  if (recorded === NO_LONGER_OWNED) {
    // Its attempt superseded: the one sync reads it as owned by no session and releases it now.
    await cardSyncFor(container, attempt.providerId).attempt(orderId)
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The card was charged (gateway order ${orderId}) but the order was cancelled, or this payment replaced, meanwhile: the charge was released (voided, or refunded if captured). Look at the order's payments before charging again.`,
    )
  }
  if (!recorded) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The card was charged (gateway order ${orderId}) but payment session ${attempt.sessionId} is no longer waiting to be recorded in Medusa. Look at the order's payments before doing anything else.`,
    )
  }
  const paymentId = recorded.paymentId
  const details = await gateway.getOrder(orderId).catch(() => charged)
  const payment = cardPaymentView({ payment_id: paymentId, provider_id: attempt.providerId }, details)
  const paid = minorMoneyText(attempt.amountMinor, attempt.currency)
  const captured = state.status === "captured"
  const outcome = captured ? "captured" : "authorized; capture it from the order's payments"
  return {
    order_id: attempt.order.id,
    payment,
    status: captured ? "captured" : "authorized",
    message: `Charged ${paid} to ${request.cardText(payment)}${request.how} (gateway order ${orderId}): ${outcome}.${recorded.draftConversion}`,
  }
}

/**
 * The next attempt then gets a new session, and with it a new gateway order id; a collection
 * set to a smaller amount owes what it owed before again.
 */
async function markSessionFailed(container: MedusaContainer, attempt: StaffAttempt, reason: string) {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const unpaid = (status: string) => status !== "authorized" && status !== "captured"
  try {
    if (await markPaymentSession(payments, attempt.sessionId, "error", reason, unpaid))
      await putBackOwed(container, attempt.sessionId)
  } catch (error) {
    // The refusal is what staff must see; a session left waiting is only re-read next time.
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(
        `nexi: could not mark the ${STAFF_CHANNEL_NOUNS[attempt.channel]} session ${attempt.sessionId} failed: ${(error as Error).message}`,
      )
  }
}

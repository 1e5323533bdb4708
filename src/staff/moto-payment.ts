/**
 * POST /admin/nexi/moto: a card payment taken by phone or mail for a draft order or an order.
 *
 * 1. What to pay comes from the Medusa order (moto-plan.ts), never from the request.
 * 2. The payment is a session of the card provider on the order's payment collection, created
 *    through Medusa's createPaymentSessions workflow with the MOTO context: the provider
 *    reserves this attempt's gateway order id and starts no hosted page (card/moto.ts).
 * 3. The card goes straight to the gateway (POST /orders/moto) under that order id, with an
 *    idempotency key derived from the Medusa order and the session (the attempt).
 * 4. The session is authorized through Medusa's authorizePaymentSessionForOrder workflow; the
 *    provider reads the gateway order like for any card payment. Staff then capture, refund
 *    and cancel it with Medusa's buttons. A draft order is then converted into an order.
 *
 * Never charged twice, whatever is lost on the way: the charge goes through the one sender
 * (core/send-once.ts), found again by its order id (core/found-by-order-id.ts). The order id
 * is fixed per attempt and the gateway refuses one it has seen; a repeat after a lost answer
 * (by the transport, or by staff sending the request again) first reads the gateway's order
 * for that id, and records the charge found there instead of charging again. An order lock keeps two requests for one
 * order from running at once. The card data is only ever in this request's memory.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import {
  authorizePaymentSessionForOrderWorkflow,
  convertDraftOrderWorkflow,
  createOrUpdateOrderPaymentCollectionWorkflow,
  createPaymentSessionsWorkflow,
} from "@medusajs/medusa/core-flows"
import { type CardOrder, readCardOrder } from "../core/card-order"
import { ByOrderId, operationIdOf } from "../core/found-by-order-id"
import { idempotencyUuid } from "../core/idempotency"
import { MOTO_CONTEXT_KEY, type MotoSessionData } from "../core/moto"
import { withLock } from "../core/payment-lock"
import { NotMadeError, sendOnce } from "../core/send-once"
import { cardProviderIdOf, gatewayClientFor, ledgerOf, requireNexiOptions } from "../core/store-entries"
import type { CustomerInfo, MotoRequest, OrderDetails } from "../gateway/schemas"
import { InvalidRequestError } from "../http/errors"
import { minorToMajorString, toMinorUnits } from "../money/amount"
import { type CardInput, cardRequestError, gatewayCard } from "./card-input"
import { cardPaymentView } from "./card-payment-view"
import type { NexiMotoResponse } from "./contract"
import {
  type MotoCollectionRow,
  type MotoOrderRow,
  type MotoTargetField,
  planMoto,
  resumableMotoSession,
} from "./moto-plan"

export interface MotoInput {
  field: MotoTargetField
  orderId: string
  card: CardInput
  cardHolderName?: string
}

interface OrderRow extends MotoOrderRow {
  display_id?: number | null
  email?: string | null
  customer_id?: string | null
}

const COLLECTION_FIELDS = [
  "id",
  "status",
  "amount",
  "raw_amount",
  "currency_code",
  "payment_sessions.id",
  "payment_sessions.provider_id",
  "payment_sessions.status",
  "payment_sessions.data",
]

export async function payByMoto(container: MedusaContainer, input: MotoInput): Promise<NexiMotoResponse> {
  return withLock(
    container,
    `nexi-moto:${input.orderId}`,
    `A MOTO payment for order ${input.orderId} is already under way.`,
    () => payLocked(container, input),
  )
}

async function payLocked(container: MedusaContainer, input: MotoInput): Promise<NexiMotoResponse> {
  const order = await loadOrder(container, input)
  const plan = planMoto(order, input.field)
  const providerId = await cardProviderIdOf(container)
  const collection =
    plan.collection === "use"
      ? await readCollection(container, plan.collectionId)
      : await prepareCollection(container, order.id)
  const currency = collection.currency_code.toUpperCase()
  const amountMinor = toMinorUnits(collection.amount, currency)
  const earlier = resumableMotoSession(collection, providerId, amountMinor)
  const session = earlier ?? (await startSession(container, collection.id, providerId))
  const data = session.data as MotoSessionData
  const gateway = gatewayClientFor(container, providerId)

  const request = motoRequest(container, providerId, order, session.id, data, input)
  const key = idempotencyUuid(`moto:${order.id}:${session.id}`)
  const ledger = ledgerOf(container)
  const write = {
    kind: "moto" as const,
    origin: "staff" as const,
    idempotency_key: key,
    gateway_ref: data.order_id,
    amount_minor: amountMinor,
    currency,
    medusa_ref: session.id,
  }
  // A declined card is an order at the gateway, but no charge: the write was not made.
  const recover = new ByOrderId(gateway, data.order_id, (details) => isCharged(readCardOrder(details)))
  let answered: OrderDetails | undefined
  const label = `MOTO payment of ${minorToMajorString(amountMinor, currency)} ${currency}`
  await sendOnce({
    ledger,
    write,
    label,
    action: "take the MOTO payment",
    recover,
    send: async () => {
      const { operation } = await gateway.createMotoPayment(request, key)
      answered = { orderStatus: { order: request.order }, operations: [operation], paymentLinks: [] }
      const state = readCardOrder(answered)
      if (!isCharged(state)) throw new CardNotAccepted(state.reason)
      return operationIdOf(operation)
    },
  }).catch(async (error) => {
    if (error instanceof CardNotAccepted) {
      await markFailed(container, collection, session.id, data, error.reason ?? "The card was not accepted.")
      throw new MedusaError(
        MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
        `The card was not accepted: ${error.reason ?? "no reason given."}`,
      )
    }
    if (error instanceof InvalidRequestError)
      await markFailed(container, collection, session.id, data, "The gateway refused the card data.")
    throw cardRequestError(error, "MOTO payment")
  })
  // Answered from the ledger (an earlier request charged it): the gateway's record says how.
  const charged = answered ?? recover.found ?? (await gateway.getOrder(data.order_id))
  const state = readCardOrder(charged)
  if (state.status === "pending") {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The gateway has not finished the MOTO payment of gateway order ${data.order_id} yet. Send the same request again shortly: it reads the gateway first and never charges twice.`,
    )
  }
  const paymentId = await authorize(container, session.id, data.order_id)
  const converted = plan.isDraft ? await convertDraft(container, order.id) : undefined
  const details = await gateway.getOrder(data.order_id).catch(() => charged)
  const payment = cardPaymentView({ payment_id: paymentId, provider_id: providerId }, details)
  const paid = `${minorToMajorString(amountMinor, currency)} ${currency}`
  const card = [payment.circuit, payment.masked_card].filter(Boolean).join(" ") || "the card"
  const outcome = state.status === "captured" ? "captured" : "authorized; capture it from the order's payments"
  return {
    order_id: order.id,
    payment,
    message: `Charged ${paid} to ${card} by MOTO (gateway order ${data.order_id}): ${outcome}.${converted ?? ""}`,
  }
}

/** The card was declined: the gateway answered, and charged nothing. */
class CardNotAccepted extends NotMadeError {
  constructor(readonly reason: string | undefined) {
    super(reason ?? "The card was not accepted.")
  }
}

function isCharged(state: CardOrder): boolean {
  return state.status !== "error" && state.status !== "canceled"
}

async function loadOrder(container: MedusaContainer, input: MotoInput): Promise<OrderRow> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "status",
      "is_draft_order",
      "currency_code",
      "email",
      "customer_id",
      "summary.*",
      ...COLLECTION_FIELDS.map((field) => `payment_collections.${field}`),
    ],
    filters: { id: input.orderId },
  })
  const row = data[0] as
    | (Omit<OrderRow, "pending_difference" | "payment_collections"> & Record<string, unknown>)
    | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `${input.field}: no order ${input.orderId}`)
  const summary = row.summary as { raw_pending_difference?: unknown; pending_difference?: unknown } | undefined
  return {
    ...row,
    pending_difference: (summary?.raw_pending_difference ??
      summary?.pending_difference) as OrderRow["pending_difference"],
    payment_collections: ((row.payment_collections as MotoCollectionRow[] | undefined) ?? []).filter(Boolean),
  }
}

async function readCollection(container: MedusaContainer, id: string): Promise<MotoCollectionRow> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment_collection", fields: COLLECTION_FIELDS, filters: { id } })
  const row = data[0] as (MotoCollectionRow & { raw_amount?: MotoCollectionRow["amount"] }) | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `No payment collection ${id}`)
  return { ...row, amount: row.raw_amount ?? row.amount }
}

/** Medusa's own workflow creates the collection, or sets it to what the order still owes. */
async function prepareCollection(container: MedusaContainer, orderId: string): Promise<MotoCollectionRow> {
  const { result } = await createOrUpdateOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId } })
  const collection = (Array.isArray(result) ? result[0] : result) as { id?: string } | undefined
  if (!collection?.id)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Medusa created no payment collection for order ${orderId}.`,
    )
  return readCollection(container, collection.id)
}

async function startSession(container: MedusaContainer, collectionId: string, providerId: string) {
  const { result } = await createPaymentSessionsWorkflow(container).run({
    input: {
      payment_collection_id: collectionId,
      provider_id: providerId,
      data: {},
      context: { [MOTO_CONTEXT_KEY]: true },
    },
  })
  return result as { id: string; data: Record<string, unknown> }
}

function motoRequest(
  container: MedusaContainer,
  providerId: string,
  order: OrderRow,
  sessionId: string,
  data: MotoSessionData,
  input: MotoInput,
): MotoRequest {
  const customerInfo: CustomerInfo = {
    ...(input.cardHolderName ? { cardHolderName: input.cardHolderName } : {}),
    ...(order.email ? { cardHolderEmail: order.email } : {}),
  }
  return {
    order: {
      orderId: data.order_id,
      amount: data.amount_minor,
      currency: data.currency,
      // As on hosted orders: the gateway's back office and notifications point back to the session.
      customField: sessionId,
      description: `MOTO payment of order ${order.display_id ?? order.id}`,
      ...(order.customer_id ? { customerId: order.customer_id } : {}),
      ...(Object.keys(customerInfo).length ? { customerInfo } : {}),
    },
    card: gatewayCard(input.card),
    captureType: requireNexiOptions(container, providerId).captureType,
  }
}

/** The next attempt then gets a new session, and with it a new gateway order id. */
async function markFailed(
  container: MedusaContainer,
  collection: MotoCollectionRow,
  sessionId: string,
  data: MotoSessionData,
  reason: string,
): Promise<void> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  try {
    await payment.updatePaymentSession({
      id: sessionId,
      amount: collection.amount as never,
      currency_code: collection.currency_code,
      data: { ...data, status: "error", reason },
      status: "error",
    })
  } catch (error) {
    // The refusal is what staff must see; a session left waiting is only re-read next time.
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`nexi: could not mark MOTO session ${sessionId} failed: ${(error as Error).message}`)
  }
}

async function authorize(container: MedusaContainer, sessionId: string, gatewayOrderId: string): Promise<string> {
  try {
    const { result } = await authorizePaymentSessionForOrderWorkflow(container).run({
      input: { payment_session_id: sessionId },
    })
    const payment = result as { id?: string } | null
    if (!payment?.id) throw new Error("the payment session was not authorized")
    return payment.id
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The card was charged (gateway order ${gatewayOrderId}) but Medusa could not record the payment: ${(error as Error).message}. Send the same request again: it finds the charge and records it.`,
    )
  }
}

/** A paid draft becomes an order; a failure here leaves a paid draft that staff convert themselves. */
async function convertDraft(container: MedusaContainer, orderId: string): Promise<string> {
  try {
    await convertDraftOrderWorkflow(container).run({ input: { id: orderId } })
    return " The draft order was converted into an order."
  } catch (error) {
    return ` The draft order could not be converted into an order (${(error as Error).message}); convert it from the draft order's page.`
  }
}

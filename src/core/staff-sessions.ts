/**
 * Sessions collected by staff: a MOTO payment (card data taken by phone or mail), a charge of
 * a customer's saved card (MIT), or a Nexi payment link. Each lives on an ordinary session of
 * the card provider, so staff capture, refund and cancel it with Medusa's own buttons like any
 * card payment.
 *
 * The staff pipeline (staff/order-collection.ts) asks for such a session with
 * `context.nexi_staff_channel` set to its channel. Medusa fills a session's context on the
 * server only (the store API cannot set it), so a shopper cannot turn a checkout session into
 * one that skips the hosted page. The provider then starts no hosted order: it reserves the
 * gateway order id of this attempt and leaves the session `pending_authorization` until staff
 * have charged (or linked) under that id. Authorizing the session afterwards reads the gateway
 * order like any other authorization: staff's pipeline does it after a charge, and the sync
 * after a paid link's notification (`authorizeStaffSessionOnce`, with the draft order it paid
 * converted by whichever of them authorized it), so both live here.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { authorizePaymentSessionForOrderWorkflow, convertDraftOrderWorkflow } from "@medusajs/medusa/core-flows"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../modules/nexi-ledger/types"
import { withLock } from "./payment-lock"
import type { PaymentStatus } from "./session-data"

export const STAFF_CHANNELS = ["moto", "mit", "payment_link"] as const
export type StaffChannel = (typeof STAFF_CHANNELS)[number]

export const STAFF_CHANNEL_CONTEXT_KEY = "nexi_staff_channel"

/** How staff and messages name a payment of each channel. */
export const STAFF_CHANNEL_NOUNS: Record<StaffChannel, string> = {
  moto: "MOTO payment",
  mit: "saved-card charge",
  payment_link: "payment link",
}

export interface StaffSessionData extends Record<string, unknown> {
  session_id: string
  /** The gateway order id this attempt is (or will be) charged under. */
  order_id: string
  amount_minor: string
  currency: string
  status: PaymentStatus
  staff_channel: StaffChannel
}

function isStaffChannel(value: unknown): value is StaffChannel {
  return typeof value === "string" && (STAFF_CHANNELS as readonly string[]).includes(value)
}

/** The channel a session is asked for by the staff pipeline, from its server-only context. */
export function staffChannelOfContext(context: unknown): StaffChannel | undefined {
  const channel = (context as Record<string, unknown> | undefined)?.[STAFF_CHANNEL_CONTEXT_KEY]
  return isStaffChannel(channel) ? channel : undefined
}

/** The channel of a stored session; sessions stored before the channels existed say `moto: true`. */
export function staffChannelOfSession(data: Record<string, unknown> | null | undefined): StaffChannel | undefined {
  if (isStaffChannel(data?.staff_channel)) return data.staff_channel
  return data?.moto === true ? "moto" : undefined
}

/** Medusa's record of a staff session's payment, and what became of the draft order it paid. */
export interface RecordedStaffPayment {
  paymentId: string
  /** For staff: " The draft order was converted into an order.", why not, or nothing (recorded by another caller). */
  draftConversion: string
}

/**
 * The session no longer owns its payment: its order was cancelled, or the session was deleted
 * while its payment was being recorded (staff took another payment for the order). Its attempts
 * are superseded, so the sync releases the payment instead of recording it.
 */
export const NO_LONGER_OWNED = "no_longer_owned"

/** Why a payment on a session whose order was cancelled is released (the ledger's note, staff's list). */
export const CANCELLED_ORDER_NOTE = "an order cancelled meanwhile"
/** Why a payment on a session deleted meanwhile is released. */
const DELETED_SESSION_NOTE = "a payment session replaced meanwhile"

/**
 * Step 4: Medusa records the payment the gateway holds under the session's order id, once,
 * whoever finds it paid first: staff's own request after a charge, or the sync (a link's
 * notification, the job). Both at once would each have Medusa authorize it; the loser's payment
 * fails Medusa's one-payment-per-session rule, and Medusa then cancels at the gateway the payment
 * the winner recorded. So they take one lock per session, and the second finds the payment made.
 * The one that authorized it converts a paid draft order. Undefined when the session is
 * neither recorded nor waiting to be (it failed or was cancelled). `paid` says what happened at
 * the gateway for the error ("The card was charged"): the payment is made, so staff must send
 * again, which finds it and records it.
 *
 * A session whose collection Medusa cancelled with its order (a customer paid a link while staff
 * cancelled the order) is never authorized: Medusa would turn the cancelled collection back into
 * an authorized one and hold the money on a cancelled order. A session deleted meanwhile (staff
 * took a MOTO payment while a link's notification was handled) can no longer be authorized, and
 * the gateway would hold a second payment Medusa never shows. Either way its attempts are
 * superseded instead (NO_LONGER_OWNED), so the sync releases the payment.
 */
export async function authorizeStaffSessionOnce(
  container: MedusaContainer,
  sessionId: string,
  gatewayOrderId: string,
  paid = "The card was charged",
): Promise<RecordedStaffPayment | typeof NO_LONGER_OWNED | undefined> {
  const recorded = await withLock(
    container,
    `nexi-order-session:${sessionId}`,
    `Session ${sessionId} is being recorded.`,
    async () => {
      const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
      const [session] = await payments.listPaymentSessions(
        { id: sessionId },
        {
          select: ["id", "status", "payment_collection_id", "payment_collection.status"],
          relations: ["payment", "payment_collection"],
        },
      )
      const ledger = container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE)
      if (!session) {
        await ledger.supersedeAttempts(sessionId, undefined, DELETED_SESSION_NOTE)
        return NO_LONGER_OWNED
      }
      const collectionId = session.payment_collection_id
      const recordedId = (session as { payment?: { id?: string } | null }).payment?.id
      if (recordedId) return { paymentId: recordedId, authorizedNow: false, collectionId }
      if (session.status !== "pending_authorization") return undefined
      if ((session as { payment_collection?: { status?: string } }).payment_collection?.status === "canceled") {
        await ledger.supersedeAttempts(sessionId, undefined, CANCELLED_ORDER_NOTE)
        return NO_LONGER_OWNED
      }
      try {
        const { result } = await authorizePaymentSessionForOrderWorkflow(container).run({
          input: { payment_session_id: sessionId },
        })
        const paymentId = (result as { id?: string } | null)?.id
        if (!paymentId) throw new Error("the payment session was not authorized")
        return { paymentId, authorizedNow: true, collectionId }
      } catch (error) {
        throw new MedusaError(
          MedusaError.Types.UNEXPECTED_STATE,
          `${paid} (gateway order ${gatewayOrderId}) but Medusa could not record the payment: ${(error as Error).message}. Send the same request again: it finds the charge and records it.`,
        )
      }
    },
    60,
  )
  if (!recorded || recorded === NO_LONGER_OWNED) return recorded
  const { paymentId, authorizedNow, collectionId } = recorded
  return { paymentId, draftConversion: authorizedNow ? await convertPaidDraft(container, collectionId) : "" }
}

/**
 * The draft order a payment collection belongs to becomes an order once paid. A failure leaves a
 * paid draft that staff convert from its page: said to staff, and logged, since the sync's
 * caller (a link's notification, the job) has no one to tell.
 */
async function convertPaidDraft(container: MedusaContainer, collectionId: string): Promise<string> {
  let draftId: string | undefined
  try {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order_payment_collection",
      fields: ["order.id", "order.is_draft_order"],
      filters: { payment_collection_id: collectionId },
    })
    const order = (data[0] as { order?: { id: string; is_draft_order?: boolean } } | undefined)?.order
    if (!order?.is_draft_order) return ""
    draftId = order.id
    await convertDraftOrderWorkflow(container).run({ input: { id: draftId } })
    return " The draft order was converted into an order."
  } catch (error) {
    const why = (error as Error).message
    const failed = draftId
      ? `the draft order could not be converted into an order (${why})`
      : `whether its order is a draft to convert could not be read (${why})`
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`nexi: payment collection ${collectionId} is paid, but ${failed}`)
    return ` But ${failed}: convert it from the draft order's page.`
  }
}

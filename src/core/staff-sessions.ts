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
 * order like any other authorization.
 */
import type { PaymentStatus } from "./payment-status"

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

export function staffSessionData(input: {
  sessionId: string
  orderId: string
  amountMinor: string
  currency: string
  channel: StaffChannel
}): StaffSessionData {
  return {
    session_id: input.sessionId,
    order_id: input.orderId,
    amount_minor: input.amountMinor,
    currency: input.currency,
    status: "pending",
    staff_channel: input.channel,
  }
}

/**
 * The page a Nexi payment link returns to: the plugin's `paymentLinkResultUrl` option, by
 * default /nexi/payment-link?order_id={order_id}&session_id={session_id} on the storefront.
 * The store route says what became of the link, to a guest as to a logged-in customer: the two
 * ids of the page's address are what let it, and it answers nothing secret.
 */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"
import { NexiInputError } from "./session-data.js"

/** What became of the link: `pending` until the gateway has an outcome (a link not paid yet too). */
export type PaymentLinkStatus = "paid" | "pending" | "declined" | "cancelled" | "expired"

export interface PaymentLinkOutcome {
  status: PaymentLinkStatus
  /** Why it was declined, cancelled or expired, in the customer's words. */
  reason?: string
  /** What the link asks, in major units ("12.50"). */
  amount: string
  /** Lower case, e.g. "eur". */
  currency_code: string
  /** The end of the last day it can be paid (ISO date-time). */
  expires_at: string
}

/** The two ids the link's page carries in its query (`order_id`, `session_id`). */
export interface PaymentLinkReturn {
  orderId: string
  sessionId: string
}

const IDS = { order_id: /^order_[A-Za-z0-9]+$/, session_id: /^payses_[A-Za-z0-9]+$/ } as const

function checked(field: keyof typeof IDS, value: unknown): string {
  if (typeof value !== "string" || !IDS[field].test(value))
    throw new NexiInputError(
      field,
      `must be the ${field === "order_id" ? "order_..." : "payses_..."} id of the page's address`,
    )
  return value
}

/** Reads what became of the link once; an id that is not one is refused before any request, naming its field. */
export async function getPaymentLinkOutcome(
  client: NexiStoreClient,
  link: PaymentLinkReturn,
  options?: RequestOptions,
): Promise<PaymentLinkOutcome> {
  const orderId = checked("order_id", link.orderId)
  const sessionId = checked("session_id", link.sessionId)
  const { payment_link } = await client.fetch<{ payment_link: PaymentLinkOutcome }>(
    `/store/nexi/payment-links/${sessionId}`,
    { query: { order_id: orderId }, ...forwarded(options) },
  )
  return payment_link
}

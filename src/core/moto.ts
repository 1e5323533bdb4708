/**
 * MOTO payments (card data taken by phone or mail, entered by staff through
 * POST /admin/nexi/moto) live on an ordinary session of the card provider, so staff capture,
 * refund and cancel them with Medusa's own buttons like any card payment.
 *
 * The admin route asks for such a session with `context.nexi_moto` set. Medusa fills a
 * session's context on the server only (the store API cannot set it), so a shopper cannot
 * turn a checkout session into one that skips the hosted page. The provider then starts no
 * hosted order: it reserves the gateway order id of this attempt and leaves the session
 * `pending_authorization` until the route has charged the card under that id. Authorizing
 * the session afterwards reads the gateway order like any other authorization.
 */
import type { PaymentStatus } from "./payment-status"

export const MOTO_CONTEXT_KEY = "nexi_moto"

export interface MotoSessionData extends Record<string, unknown> {
  session_id: string
  /** The gateway order id this attempt is (or will be) charged under. */
  order_id: string
  amount_minor: string
  currency: string
  status: PaymentStatus
  moto: true
}

export function isMotoRequest(context: unknown): boolean {
  return (context as Record<string, unknown> | undefined)?.[MOTO_CONTEXT_KEY] === true
}

export function motoSessionData(input: {
  sessionId: string
  orderId: string
  amountMinor: string
  currency: string
}): MotoSessionData {
  return {
    session_id: input.sessionId,
    order_id: input.orderId,
    amount_minor: input.amountMinor,
    currency: input.currency,
    status: "pending",
    moto: true,
  }
}

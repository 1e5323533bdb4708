/**
 * GET /store/nexi/payment-links/:session_id?order_id=<order id>: what became of the payment link
 * a customer paid through that payment session, for the page the link returns to (the
 * `paymentLinkResultUrl` option, docs/storefront.md). A guest may ask as a logged-in customer
 * may: the pair of ids the page's URL carries is what lets it. Answers
 *   { payment_link: { status: paid | pending | declined | cancelled | expired, reason?,
 *     amount, currency_code, expires_at } }
 * and nothing else: not the link, the gateway's ids or its token. A session that is not a link
 * of that order is the same 404 as one that does not exist. The gateway is read at most once
 * per link every few seconds in this process (read-throttle.ts): asks in between get the last
 * answer.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { type PaymentLinkOutcome, paymentLinkOutcome } from "../../../../../staff/payment-links"
import { orderId, PaymentSessionParamsSchema, parseInput } from "../../../../../staff/validate-input"
import { ReadThrottle } from "../../../../utils/read-throttle"

const QuerySchema = z.object({ order_id: orderId })

const LINK_READ_INTERVAL_MS = 3_000

const linkReads = new ReadThrottle<PaymentLinkOutcome>({ intervalMs: LINK_READ_INTERVAL_MS, maxKeys: 10_000 })

export async function GET(req: MedusaRequest, res: MedusaResponse<{ payment_link: PaymentLinkOutcome }>) {
  const { id } = parseInput(PaymentSessionParamsSchema, req.params)
  const { order_id } = parseInput(QuerySchema, req.query)
  const outcome = await linkReads.latest(`${id} ${order_id}`, () =>
    paymentLinkOutcome(req.scope, { orderId: order_id, sessionId: id }),
  )
  res.json({ payment_link: outcome })
}

/**
 * GET /store/nexi/orders/:id/payment-link: the open Nexi payment link of one of the logged-in
 * customer's orders, for the storefront's "pay what you owe" page (docs/storefront.md):
 * { payment_link: { url, amount, currency_code, expires_at } | null }. 404 for an order that
 * is not the customer's, as for one that does not exist. Behind customer authentication
 * (middlewares.ts).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { openLinkOfCustomerOrder } from "../../../../../../staff/payment-links"
import { OrderParamsSchema, parseInput } from "../../../../../../staff/validate-input"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { id } = parseInput(OrderParamsSchema, req.params)
  res.json({ payment_link: await openLinkOfCustomerOrder(req.scope, id, req.auth_context.actor_id) })
}

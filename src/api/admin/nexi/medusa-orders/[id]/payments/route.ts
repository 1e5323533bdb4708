/**
 * GET /admin/nexi/medusa-orders/:id/payments: every Nexi payment of a Medusa order, read live
 * from its service (a card payment from its gateway order, a mobile payment from its
 * transaction) with the ledger's issues on it, and the payments of the order's cart the plugin
 * released, as NexiOrderPaymentsResponse. An order without one answers empty lists.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { NexiOrderPaymentsResponse } from "../../../../../../staff/contract"
import { orderPaymentsView } from "../../../../../../staff/payment-views"
import { OrderParamsSchema, parseInput } from "../../../../../../staff/validate-input"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiOrderPaymentsResponse>) {
  const { id } = parseInput(OrderParamsSchema, req.params)
  res.json(await orderPaymentsView(req.scope, id))
}

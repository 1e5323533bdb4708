/**
 * GET /admin/nexi/medusa-orders/:id/payments: every Nexi payment of a Medusa order, read live
 * from its service (a card payment from its gateway order, a mobile payment from its
 * transaction), as NexiOrderPaymentsResponse. An order without one answers an empty list.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { nexiPaymentsOfOrder } from "../../../../../../nexi-admin/nexi-payments"
import { readPaymentView } from "../../../../../../nexi-admin/payment-view"
import { parseInput } from "../../../../../utils/validate-input"
import type { NexiOrderPaymentsResponse } from "../../../contract"

const ParamsSchema = z.object({ id: z.string().regex(/^order_[A-Za-z0-9]+$/, "must be an order id (order_...)") })

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiOrderPaymentsResponse>) {
  const { id } = parseInput(ParamsSchema, req.params)
  const records = await nexiPaymentsOfOrder(req.scope, id)
  const payments = await Promise.all(records.map((record) => readPaymentView(req.scope, record)))
  res.json({ order_id: id, payments })
}

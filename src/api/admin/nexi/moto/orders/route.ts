/**
 * GET /admin/nexi/moto/orders?q=: the newest orders that owe money staff may collect, matching
 * `q` (Medusa's order search: number, email, names on the addresses) when given, as
 * NexiOwingOrdersResponse: what the MOTO form lists for "Order with an unpaid balance". An order
 * whose payment is authorized is paid, and not listed. An unknown parameter is refused.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { NexiOwingOrdersResponse } from "../../../../../staff/contract"
import { ordersOwing } from "../../../../../staff/order-collection"
import { parseInput } from "../../../../../staff/validate-input"

/** Enough to pick from; a search narrows the rest. */
const LISTED = 10

const QuerySchema = z.strictObject({
  q: z.string().trim().max(200, "must be at most 200 characters").default(""),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiOwingOrdersResponse>) {
  const { q } = parseInput(QuerySchema, req.query)
  res.json({ orders: await ordersOwing(req.scope, q, LISTED) })
}

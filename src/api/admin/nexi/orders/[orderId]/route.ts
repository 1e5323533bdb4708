/**
 * GET /admin/nexi/orders/:orderId: the gateway's own record of one of its orders
 * (GET /orders/{orderId}), passed through as the gateway gives it: order status, every
 * operation, payment links. 400 for an id the gateway could not hold, 404 when it has none.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { fromGateway } from "../../../../../core/medusa-errors"
import { merchantGateway } from "../../../../../core/store-entries"
import { OrderIdSchema } from "../../../../../gateway/schemas"
import { parseInput } from "../../../../../staff/validate-input"

const ParamsSchema = z.object({ orderId: OrderIdSchema })

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { orderId } = parseInput(ParamsSchema, req.params)
  const gateway = await merchantGateway(req.scope)
  res.json(await fromGateway(`read gateway order ${orderId}`, () => gateway.getOrder(orderId)))
}

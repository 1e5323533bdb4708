/**
 * POST /admin/nexi/medusa-orders/:id/payment-links/:linkId/cancel: staff cancel an open
 * payment link of the order at the gateway (sent once); a payment made on it afterwards is
 * released. Answers the order's links (NexiPaymentLinksResponse); 400 for a link that is not open.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { NexiPaymentLinksResponse } from "../../../../../../../../staff/contract"
import { cancelPaymentLink } from "../../../../../../../../staff/payment-links"
import { orderId, parseInput } from "../../../../../../../../staff/validate-input"

const ParamsSchema = z.object({
  id: orderId,
  linkId: z.string().regex(/^[A-Za-z0-9]{1,18}$/, "must be a payment link id (1 to 18 letters and digits)"),
})

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiPaymentLinksResponse>) {
  const { id, linkId } = parseInput(ParamsSchema, req.params)
  res.json(await cancelPaymentLink(req.scope, { orderId: id, linkId }))
}

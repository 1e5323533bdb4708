/**
 * GET /admin/nexi/medusa-orders/:id/payment-links: the order's Nexi payment links, newest
 * first, each with its state (open, paid, expired, cancelled) read from the gateway and the
 * ledger, as NexiPaymentLinksResponse. An order without one answers an empty list. A link paid
 * whose payment Medusa has not recorded yet (its notification lost) is synced first.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { cardSyncFor } from "../../../../../../core/card/card-sync"
import { cardProviderIdOf } from "../../../../../../core/store-entries"
import type { NexiPaymentLinksResponse } from "../../../../../../staff/contract"
import { paymentLinksOf } from "../../../../../../staff/payment-links"
import { parseInput } from "../../../../../../staff/validate-input"

const ParamsSchema = z.object({ id: z.string().regex(/^order_[A-Za-z0-9]+$/, "must be an order id (order_...)") })

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiPaymentLinksResponse>) {
  const { id } = parseInput(ParamsSchema, req.params)
  const providerId = await cardProviderIdOf(req.scope)
  const sync = cardSyncFor(req.scope, providerId)
  res.json(await paymentLinksOf(req.scope, id, (gatewayOrderId) => sync.attempt(gatewayOrderId)))
}

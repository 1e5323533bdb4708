/**
 * GET /admin/nexi/medusa-orders/:id/payment-links: the order's Nexi payment links, newest
 * first, each with its state (open, paid, expired, cancelled) read from the gateway and the
 * ledger, as NexiPaymentLinksResponse. An order without one answers an empty list. A link paid
 * whose payment Medusa has not recorded yet (its notification lost) is synced first.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cardSyncFor } from "../../../../../../core/card/card-sync"
import { cardProviderIdOf } from "../../../../../../core/store-entries"
import type { NexiPaymentLinksResponse } from "../../../../../../staff/contract"
import { paymentLinksOf } from "../../../../../../staff/payment-links"
import { OrderParamsSchema, parseInput } from "../../../../../../staff/validate-input"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiPaymentLinksResponse>) {
  const { id } = parseInput(OrderParamsSchema, req.params)
  const providerId = await cardProviderIdOf(req.scope)
  const sync = cardSyncFor(req.scope, providerId)
  res.json(await paymentLinksOf(req.scope, id, (gatewayOrderId) => sync.attempt(gatewayOrderId)))
}

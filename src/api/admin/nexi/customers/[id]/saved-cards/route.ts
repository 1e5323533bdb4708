/**
 * GET /admin/nexi/customers/:id/saved-cards: the customer's saved Nexi cards, every state, as
 * NexiCustomerSavedCardsResponse. Read from the plugin's module only: no gateway call.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { NexiCustomerSavedCardsResponse } from "../../../../../../staff/contract"
import { customerSavedCards } from "../../../../../../staff/customer-saved-cards"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiCustomerSavedCardsResponse>) {
  res.json({ saved_cards: await customerSavedCards(req.scope, String(req.params.id)) })
}

/**
 * DELETE /store/nexi/saved-cards/{id}: the customer deletes one of their saved cards; it is
 * never offered or used again. Another customer's card, or an unknown id, is 404 alike.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { deleteSavedCard } from "../../../../../shopper/saved-cards"

export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const id = String(req.params.id)
  await deleteSavedCard(req.scope, req.auth_context.actor_id, id)
  res.json({ id, object: "saved_card", deleted: true })
}

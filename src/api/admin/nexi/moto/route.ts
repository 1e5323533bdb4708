/**
 * POST /admin/nexi/moto { draft_order_id | order_id, card: { pan, expiryDate, cvv? },
 * card_holder_name? }: a card payment taken by phone or mail (src/staff/card-entry.ts).
 * The amount and currency come from the Medusa order, never from the request; the card data
 * goes to the gateway and nowhere else. Answers NexiStaffChargeResponse.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { cardInputSchema, payByMoto } from "../../../../staff/card-entry"
import type { NexiStaffChargeResponse } from "../../../../staff/contract"
import { orderCollectionBody, parseInput } from "../../../../staff/validate-input"

const BodySchema = orderCollectionBody({
  card: cardInputSchema(),
  card_holder_name: z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters").optional(),
})

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiStaffChargeResponse>) {
  const body = parseInput(BodySchema, req.body)
  res.json(
    await payByMoto(req.scope, {
      field: body.field,
      orderId: body.orderId,
      card: body.card,
      cardHolderName: body.card_holder_name,
    }),
  )
}

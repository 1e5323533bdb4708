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
import { orderId, parseInput } from "../../../../staff/validate-input"

const BodySchema = z
  .strictObject({
    draft_order_id: orderId.optional(),
    order_id: orderId.optional(),
    card: cardInputSchema(),
    card_holder_name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(255, "must be at most 255 characters")
      .optional(),
  })
  .refine((body) => Boolean(body.draft_order_id) !== Boolean(body.order_id), {
    path: ["order_id"],
    message: "give exactly one of draft_order_id and order_id",
  })

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiStaffChargeResponse>) {
  const body = parseInput(BodySchema, req.body)
  const field = body.draft_order_id ? "draft_order_id" : "order_id"
  res.json(
    await payByMoto(req.scope, {
      field,
      orderId: (body.draft_order_id ?? body.order_id)!,
      card: body.card,
      cardHolderName: body.card_holder_name,
    }),
  )
}

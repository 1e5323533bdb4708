/**
 * POST /admin/nexi/card-verifications { card: { pan, expiryDate, cvv? }, customer_email? }:
 * checks a card at the gateway without moving money (src/staff/card-entry.ts).
 * Answers NexiCardVerificationResponse; a declined card is result DECLINED, not an error.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { cardInputSchema, verifyCard } from "../../../../staff/card-entry"
import type { NexiCardVerificationResponse } from "../../../../staff/contract"
import { parseInput } from "../../../../staff/validate-input"

const BodySchema = z.strictObject({
  card: cardInputSchema(),
  customer_email: z
    .email({ message: "must be an email address" })
    .max(255, "must be at most 255 characters")
    .optional(),
})

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiCardVerificationResponse>) {
  const body = parseInput(BodySchema, req.body)
  res.json(await verifyCard(req.scope, { card: body.card, customerEmail: body.customer_email }))
}

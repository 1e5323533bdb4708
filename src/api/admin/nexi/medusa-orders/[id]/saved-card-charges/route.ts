/**
 * GET /admin/nexi/medusa-orders/:id/saved-card-charges: what the order owes and the customer's
 * saved cards staff may charge for it (NexiSavedCardChargeOptions).
 * POST /admin/nexi/medusa-orders/:id/saved-card-charges { payment_method_id, amount?, reason? }:
 * charges one of them for what the order owes, or the smaller `amount` (major units, "12.50"),
 * through POST /orders/mit, sent once (src/staff/saved-card-charge.ts). Answers
 * NexiStaffChargeResponse.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { NexiSavedCardChargeOptions, NexiStaffChargeResponse } from "../../../../../../staff/contract"
import { chargeSavedCard, savedCardChargeOptions } from "../../../../../../staff/saved-card-charge"
import { decimalAmount, OrderParamsSchema, parseInput } from "../../../../../../staff/validate-input"

const BodySchema = z.strictObject({
  payment_method_id: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a saved card id (nexcard_...)") })
    .regex(/^nexcard_[A-Za-z0-9]+$/, "must be a saved card id (nexcard_...)"),
  amount: decimalAmount.optional(),
  reason: z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters").optional(),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiSavedCardChargeOptions>) {
  const { id } = parseInput(OrderParamsSchema, req.params)
  res.json(await savedCardChargeOptions(req.scope, id))
}

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiStaffChargeResponse>) {
  const { id } = parseInput(OrderParamsSchema, req.params)
  const body = parseInput(BodySchema, req.body)
  res.json(
    await chargeSavedCard(req.scope, {
      orderId: id,
      paymentMethodId: body.payment_method_id,
      amount: body.amount,
      reason: body.reason,
    }),
  )
}

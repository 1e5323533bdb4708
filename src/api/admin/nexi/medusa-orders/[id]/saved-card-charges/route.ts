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
import { parseInput } from "../../../../../../staff/validate-input"

const ParamsSchema = z.object({ id: z.string().regex(/^order_[A-Za-z0-9]+$/, "must be an order id (order_...)") })

const BodySchema = z.strictObject({
  payment_method_id: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a saved card id (nexcard_...)") })
    .regex(/^nexcard_[A-Za-z0-9]+$/, "must be a saved card id (nexcard_...)"),
  amount: z
    .string({ error: 'must be a decimal number in the order\'s currency, as a string like "12.50"' })
    .regex(/^\d+(\.\d+)?$/, 'must be a positive decimal number like "12.50"')
    .optional(),
  reason: z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters").optional(),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiSavedCardChargeOptions>) {
  const { id } = parseInput(ParamsSchema, req.params)
  res.json(await savedCardChargeOptions(req.scope, id))
}

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiStaffChargeResponse>) {
  const { id } = parseInput(ParamsSchema, req.params)
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

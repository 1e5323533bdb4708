/**
 * POST /admin/nexi/payment-links { order_id | draft_order_id, expiry_days?, amount? }: a Nexi
 * payment link for what the order owes (src/staff/payment-links.ts), or the smaller `amount`
 * staff typed (major units, "12.50"; checked against what the order owes, never more, not for a
 * draft order); the link can be paid until the end of the day `expiry_days`
 * (1 to 90, default 7) from today, UTC. `wallet` ("GOOGLEPAY" or "APPLEPAY", one the card
 * provider's `wallets` option offers) makes it a link the customer pays with that wallet; without
 * it, by card. It replaces the order's open links. Answers NexiPaymentLinksResponse with 201.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { DEFAULT_LINK_EXPIRY_DAYS, MAX_LINK_EXPIRY_DAYS } from "../../../../core/card/payment-links"
import type { NexiPaymentLinksResponse } from "../../../../staff/contract"
import { createPaymentLink } from "../../../../staff/payment-links"
import { decimalAmount, orderCollectionBody, parseInput } from "../../../../staff/validate-input"

const BodySchema = orderCollectionBody({
  expiry_days: z
    .number({ message: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(MAX_LINK_EXPIRY_DAYS, `must be at most ${MAX_LINK_EXPIRY_DAYS} days`)
    .default(DEFAULT_LINK_EXPIRY_DAYS),
  amount: decimalAmount.optional(),
  // Checked against the options by the use case, which names the field.
  wallet: z.unknown().optional(),
})

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiPaymentLinksResponse>) {
  const body = parseInput(BodySchema, req.body)
  res.status(201).json(
    await createPaymentLink(req.scope, {
      orderId: body.orderId,
      field: body.field,
      expiryDays: body.expiry_days,
      amount: body.amount,
      wallet: body.wallet,
    }),
  )
}

/**
 * GET /admin/nexi/released-payments?limit=: the payments the plugin released by itself, newest
 * first, as NexiReleasedPaymentsResponse. Read from the plugin's ledger only: no gateway call.
 * An unknown parameter is refused rather than ignored, as on the other list route.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { NexiReleasedPaymentsResponse } from "../../../../staff/contract"
import { releasedPayments } from "../../../../staff/payment-views"
import { parseInput } from "../../../../staff/validate-input"

const MAX_LIMIT = 200

const QuerySchema = z.strictObject({
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, `must be a whole number from 1 to ${MAX_LIMIT}`)
    .transform(Number)
    .refine((limit) => limit <= MAX_LIMIT, `must be a whole number from 1 to ${MAX_LIMIT}`)
    .default(50),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiReleasedPaymentsResponse>) {
  const { limit } = parseInput(QuerySchema, req.query)
  res.json({ released_payments: await releasedPayments(req.scope, { limit }) })
}

/**
 * POST /admin/nexi/payments/:id/sync: re-reads the payment from its service now and records
 * what Medusa lacks (src/staff/payment-actions.ts). No body. Answers
 * NexiPaymentActionResponse, whose message says what changed.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { NexiPaymentActionResponse } from "../../../../../../staff/contract"
import { syncPayment } from "../../../../../../staff/payment-actions"
import { PaymentParamsSchema, parseInput } from "../../../../../../staff/validate-input"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiPaymentActionResponse>) {
  const { id } = parseInput(PaymentParamsSchema, req.params)
  parseInput(z.strictObject({}), req.body)
  res.json(await syncPayment(req.scope, id))
}

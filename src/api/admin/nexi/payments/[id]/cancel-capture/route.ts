/**
 * POST /admin/nexi/payments/:id/cancel-capture { operation_id, reason, keep_authorization? }:
 * rolls a capture of this card payment back at the gateway, records the amount in Medusa as a
 * refund, and, for a full capture, voids the authorization the cancel gives back unless
 * `keep_authorization` is true (src/staff/payment-actions.ts). Answers NexiPaymentActionResponse.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import type { NexiPaymentActionResponse } from "../../../../../../staff/contract"
import { cancelCapture } from "../../../../../../staff/payment-actions"
import { PaymentParamsSchema, parseInput } from "../../../../../../staff/validate-input"

const BodySchema = z.strictObject({
  operation_id: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the gateway id of the capture (letters, digits, '-' or '_')"),
  reason: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .trim()
    .min(1, "must not be empty")
    // The gateway's description field holds at most 255 characters.
    .max(255, "must be at most 255 characters"),
  keep_authorization: z.boolean({ error: "must be true or false" }).optional(),
})

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiPaymentActionResponse>) {
  const { id } = parseInput(PaymentParamsSchema, req.params)
  const body = parseInput(BodySchema, req.body)
  res.json(
    await cancelCapture(req.scope, {
      paymentId: id,
      operationId: body.operation_id,
      reason: body.reason,
      actorId: req.auth_context?.actor_id,
      keepAuthorization: body.keep_authorization,
    }),
  )
}

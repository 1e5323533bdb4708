/**
 * POST /store/nexi/payment-sessions/:id/finalize { cart_id }: XPay Build's payment, once the
 * card fields in the checkout reported READY_FOR_PAYMENT (docs/storefront.md). Answers what the
 * page does next:
 *   { next: "complete_cart" } | { next: "redirect", url } | { next: "declined", reason } | { next: "wait" }
 * Another cart's session is the same 404 as one that does not exist; a completed cart, or one
 * whose total changed since the fields opened, is a 409 asking for a new payment session
 * (src/core/card/build-finalize.ts).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { type BuildNextStep, finalizeBuildSession } from "../../../../../../core/card/build-finalize"
import { cartId, PaymentSessionParamsSchema, parseInput } from "../../../../../../staff/validate-input"

const BodySchema = z.strictObject({ cart_id: cartId })

export async function POST(req: MedusaRequest, res: MedusaResponse<BuildNextStep | { type: string; message: string }>) {
  const { id } = parseInput(PaymentSessionParamsSchema, req.params)
  const { cart_id } = parseInput(BodySchema, req.body)
  try {
    res.json(await finalizeBuildSession(req.scope, { sessionId: id, cartId: cart_id }))
  } catch (error) {
    // Medusa's error handler answers every conflict with its own words about idempotency keys;
    // the page needs ours, which say to start a new session.
    if (!(error instanceof MedusaError) || error.type !== MedusaError.Types.CONFLICT) throw error
    res.status(409).json({ type: error.type, message: error.message })
  }
}

/**
 * Runs before Medusa's handler of POST /store/payment-collections/:id/payment-sessions. A
 * mobile payment session without the shopper's consumer id is refused here, before Medusa's
 * workflow starts, because inside the workflow the refusal comes too late to change nothing:
 * Medusa deletes the collection's other sessions while it creates the new one, and recreates
 * them when the creation fails, so a card session would get a new hosted payment page and the
 * one the shopper may still have open would no longer match it (integration-tests/faults/
 * malformed-inputs.spec.ts).
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readConsumerId } from "../../core/mobile/apm-session-data"
import { apmMethodOfProvider } from "../../core/provider-ids"

export function requireConsumerId(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as { provider_id?: unknown; data?: unknown }
  if (typeof body.provider_id !== "string" || !apmMethodOfProvider(body.provider_id)) return next()
  try {
    readConsumerId(body.data)
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * A gateway order or mobile-payment transaction the plugin opened. It outlives its Medusa
 * session: when the session moves to a new order or is deleted, the attempt stays known, so
 * money paid on it later (an old browser tab, an app approval that came late) is found and
 * released instead of being left with the shopper's bank.
 */
import { model } from "@medusajs/framework/utils"

/** Also given by the ledger service, which inserts attempts itself. */
export const ATTEMPT_ID_PREFIX = "nexatt"

export const NexiPaymentAttempt = model
  .define("nexi_payment_attempt", {
    id: model.id({ prefix: ATTEMPT_ID_PREFIX }).primaryKey(),
    /** The provider that opened it, as Medusa's webhook route names it (`nexi_nexi`, `nexi-apm-psp-b_nexi-it`): the entry whose keys read it. */
    provider_identifier: model.text(),
    /** The gateway's orderId, or the mobile-payment service's transactionId. */
    gateway_ref: model.text(),
    session_id: model.text().nullable(),
    cart_id: model.text().nullable(),
    amount_minor: model.text(),
    currency: model.text(),
    /** SHA-256 of the hosted order's securityToken: notifications stay verifiable after the session moved on. */
    security_token_hash: model.text().nullable(),
    state: model.enum(["open", "superseded", "paid", "released", "closed"]).default("open"),
    /** When the reconciliation job reads it next; null once nothing is left to watch. */
    next_check_at: model.dateTime().nullable(),
    checks: model.number().default(0),
    /** What happened to it, in words for staff (why it was released, how it ended). */
    note: model.text().nullable(),
    released_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["gateway_ref"], unique: true },
    { on: ["state", "next_check_at"] },
    { on: ["session_id"] },
    { on: ["cart_id"] },
  ])

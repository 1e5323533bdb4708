/**
 * A money write the plugin asked a gateway to make, recorded before it is sent and settled
 * after: the idempotency key it carried, what it was for, and how it ended. A write whose
 * answer was lost stays `unknown` until the gateway's own record says what happened; until
 * then no new write may send the same money again.
 */
import { model } from "@medusajs/framework/utils"
import { WRITE_KINDS } from "../types"

export const NexiMoneyWrite = model
  .define("nexi_money_write", {
    id: model.id({ prefix: "nexwri" }).primaryKey(),
    /** What the write was (types.ts, WRITE_KINDS); some move no money, like a contract_deactivation. */
    kind: model.enum([...WRITE_KINDS]),
    /** Why it was sent: Medusa asked, staff asked through the Nexi section, or the plugin released an orphan. */
    origin: model.enum(["medusa", "staff", "release"]).default("medusa"),
    idempotency_key: model.text(),
    /** The gateway order or mobile-payment transaction the money belongs to. */
    gateway_ref: model.text(),
    /** The operation or transaction the write applies to (the capture that is refunded, ...). */
    target_ref: model.text().nullable(),
    amount_minor: model.text(),
    currency: model.text(),
    /** The Medusa record it serves: a capture, refund, payment or session id. */
    medusa_ref: model.text().nullable(),
    outcome: model.enum(["requested", "executed", "refused", "unknown"]).default("requested"),
    /** The gateway's operation id, or the service's transaction id, once known. */
    gateway_operation_id: model.text().nullable(),
    /** For mobile refunds and reversals: where the service's own transaction stands (they start INITIALIZED). */
    follow_state: model.enum(["none", "following", "done", "rejected"]).default("none"),
    /** The Medusa refund that took over an executed write whose own Medusa refund was rolled back. */
    claimed_by: model.text().nullable(),
    message: model.text().nullable(),
    /** The provider and body a mobile payment's start is sent again with after a lost answer (types.ts, PAYMENT_START_KIND). */
    resend: model.json().nullable(),
  })
  .indexes([
    { on: ["idempotency_key"], unique: true },
    { on: ["gateway_ref"] },
    { on: ["outcome"] },
    { on: ["follow_state"] },
  ])

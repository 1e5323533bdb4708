/**
 * A card a customer saved at the card gateway: the card-on-file contract the plugin asked
 * the gateway to create (recurrence CONTRACT_CREATION, contractType CIT or, with the customer's
 * consent to merchant charges, MIT_UNSCHEDULED) and what the paying
 * operation showed of the card. Kept here, on the server, because the contract id is what
 * pays with the card again: it never goes into storefront-readable session data.
 */
import { model } from "@medusajs/framework/utils"
import { SAVED_CARD_CONTRACT_TYPES } from "../types"

export const NexiSavedCard = model
  .define("nexi_saved_card", {
    id: model.id({ prefix: "nexcard" }).primaryKey(),
    /** The provider that opened the contract (`nexi_nexi`): its entry's keys pay with it. */
    provider_identifier: model.text(),
    /** The gateway's `customerId`: the account holder's id, the plugin's own, never an e-mail. */
    customer_ref: model.text(),
    /** Medusa's customer, for the admin's customer page. */
    customer_id: model.text().nullable(),
    contract_id: model.text(),
    /** The hosted order that creates (or created) the contract. */
    gateway_ref: model.text(),
    /** checkout: saved while paying; verify: saved without paying (actionType VERIFY). */
    purpose: model.enum(["checkout", "verify"]),
    /** CIT: only the cardholder pays with it; MIT_UNSCHEDULED: staff may charge it (POST /orders/mit). */
    contract_type: model.enum([...SAVED_CARD_CONTRACT_TYPES]).default("CIT"),
    /** SHA-256 of a VERIFY order's securityToken: its notification belongs to no payment session. */
    security_token_hash: model.text().nullable(),
    /**
     * pending until the gateway confirms the payment or verification; failed when it did not;
     * unsupported when the card's circuit has no one-click; deleted by its customer.
     */
    state: model.enum(["pending", "active", "failed", "unsupported", "deleted"]).default("pending"),
    circuit: model.text().nullable(),
    masked_pan: model.text().nullable(),
    /** mm/yy, when the gateway gives it (its operation records do not). */
    expiry: model.text().nullable(),
    activated_at: model.dateTime().nullable(),
    removed_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["contract_id"], unique: true },
    { on: ["gateway_ref"], unique: true },
    { on: ["customer_ref", "state"] },
    { on: ["customer_id"] },
  ])

/**
 * What an APM provider keeps on a Medusa payment session (and, after authorization, on the
 * payment). The storefront reads it: the transaction to show, the shopper's approval link
 * and why a payment failed. Nothing secret: the consumer key and secret never come here.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { AccountStateSchema, type Envelope, NextLinkSchema, TransactionStateSchema } from "../../apm/schemas"
import { minorAmount, optional, PAYMENT_STATUSES, sessionDataReader } from "../session-data"
import { readMobileTransaction } from "./mobile-transaction"

/** The key under which the storefront sends the shopper's mobile number or scheme code. */
export const CONSUMER_ID_KEY = "consumer_id"

/** The session data, every field checked; one of the wrong type is an error naming it. */
export const readApmSessionData = sessionDataReader({
  session_id: optional(z.string()),
  /** PSP_A_E_COM, PSP_B, PSP_C or PSP_D. */
  method: optional(z.string()),
  /** What the shopper gave: their mobile number or scheme code (consumer.consumerId). */
  // A number a storefront sent for a mobile number reads as its digits, as readConsumerId does.
  consumer_id: optional(z.union([z.string(), z.number().transform(String)])),
  consumer_name: optional(z.string()),
  /** The payment transaction at the service; absent when initialize was refused outright. */
  transaction_id: optional(z.string()),
  state: optional(TransactionStateSchema),
  account_state: optional(AccountStateSchema),
  /** The service's link to the status operation, used for every status read. */
  next_link: optional(NextLinkSchema),
  /** Where the shopper approves the payment (the simulator's phone page), while it is pending. */
  approval_url: optional(z.string()),
  amount_minor: optional(minorAmount),
  /** The VAT part of amount_minor sent to the service, for splitting refunds the same way. */
  vat_minor: optional(minorAmount),
  currency: optional(z.string()),
  status: optional(z.enum(PAYMENT_STATUSES)),
  /** Why the payment failed or was cancelled, for the storefront to show. */
  reason: optional(z.string()),
  /** Running totals of refunds sent, so their VAT adds up to the payment's. */
  refunded_minor: optional(minorAmount),
  refunded_vat_minor: optional(minorAmount),
  /** The refund transactions at the service, each with originalReference = transaction_id. */
  refund_transaction_ids: optional(z.array(z.string())),
  /** When the reconciliation job first reads a pending transaction (ISO time). */
  poll_after: optional(z.string()),
  /** The reversal that cancelled the payment. */
  reversal_transaction_id: optional(z.string()),
})

/** What the session data holds, every field optional; unknown keys are kept. */
export type ApmSessionData = ReturnType<typeof readApmSessionData>

/**
 * The shopper's mobile number or scheme code, which the storefront sends as data.consumer_id.
 * Read by the provider and, before Medusa's workflow starts, by the store route's middleware.
 */
export function readConsumerId(data: unknown): string {
  const value = (data as Record<string, unknown> | undefined)?.[CONSUMER_ID_KEY]
  const consumerId = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : ""
  if (!consumerId) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Could not start the payment: give the shopper's mobile number or payment code as data.${CONSUMER_ID_KEY} when creating the payment session.`,
    )
  }
  return consumerId
}

/** What an answer tells about its transaction; the approval link only while it is pending. */
export function transactionFields(
  envelope: Envelope,
): Pick<ApmSessionData, "transaction_id" | "state" | "account_state" | "next_link" | "approval_url"> {
  const transaction = readMobileTransaction(envelope)
  const link = envelope.nextLink
  const linkId = link?.params?.transactionId
  return {
    transaction_id: transaction.transactionId ?? (linkId === undefined ? undefined : String(linkId)),
    state: transaction.transactionState,
    account_state: transaction.accountState,
    next_link: link,
    approval_url: link?.params?.approvalUrl,
  }
}

/**
 * What the card provider keeps on a Medusa payment session (and, after authorization, on the
 * payment). The storefront can read it: it holds the hosted page to redirect to and the
 * outcome to show, never the securityToken itself (only its hash).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { z } from "zod"
import { requireField } from "./medusa-errors"
import { PAYMENT_STATUSES, type PaymentStatus } from "./payment-status"
import { minorAmount, optional, sessionDataReader } from "./session-data-schema"
import { STAFF_CHANNELS } from "./staff-sessions"

export interface CardSessionData extends Record<string, unknown> {
  session_id: string
  /** The gateway order of the current payment attempt. */
  order_id: string
  /** Where the storefront sends the shopper to pay. */
  hosted_page: string
  amount_minor: string
  currency: string
  security_token_hash: string
  status: PaymentStatus
  /** ISO time from which the reconciliation job reads the order if it is still pending. */
  poll_after?: string
  /** Why the payment failed or was cancelled, for the storefront to show. */
  reason?: string
  /** AUTHORIZATION operation (EXPLICIT) or CAPTURE operation (IMPLICIT) that paid. */
  payment_operation_id?: string
  capture_operation_id?: string
}

const readData = sessionDataReader({
  session_id: optional(z.string()),
  order_id: optional(z.string()),
  hosted_page: optional(z.string()),
  amount_minor: optional(minorAmount),
  currency: optional(z.string()),
  security_token_hash: optional(z.string()),
  status: optional(z.enum(PAYMENT_STATUSES)),
  poll_after: optional(z.string()),
  reason: optional(z.string()),
  payment_operation_id: optional(z.string()),
  capture_operation_id: optional(z.string()),
  moto: optional(z.boolean()),
  staff_channel: optional(z.enum(STAFF_CHANNELS)),
  save_card: optional(z.boolean()),
  allow_merchant_charges: optional(z.boolean()),
  payment_method_id: optional(z.string()),
})

/** The session data, every field checked; one of the wrong type is an error naming it. */
export function readCardSessionData(data: Record<string, unknown> | undefined): Partial<CardSessionData> {
  return readData(data)
}

/** A field the card payment needs, or an error saying the payment was not started with the card provider. */
export function requireCardField<T>(value: T | undefined | null, field: string, action: string): T {
  return requireField(value, field, action, "Nexi card")
}

/**
 * The gateway signs nothing: a notification is genuine when it carries the securityToken the
 * gateway gave us for that order. Session data is readable by the storefront, so only a
 * SHA-256 of the token is stored there, and the comparison is constant-time.
 */
export function hashSecurityToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex")
}

export function securityTokenMatches(token: unknown, expectedHash: unknown): boolean {
  if (typeof token !== "string" || typeof expectedHash !== "string" || !/^[0-9a-f]{64}$/.test(expectedHash)) {
    return false
  }
  return timingSafeEqual(Buffer.from(hashSecurityToken(token), "hex"), Buffer.from(expectedHash, "hex"))
}

/**
 * What the card provider keeps on a Medusa payment session (and, after authorization, on the
 * payment). The storefront can read it: it holds the hosted page to redirect to and the
 * outcome to show, never the securityToken itself (only its hash).
 */
import type { CardPaymentStatus } from "./order-state"

export interface CardSessionData extends Record<string, unknown> {
  session_id: string
  /** The gateway order of the current payment attempt. */
  order_id: string
  /** Where the storefront sends the shopper to pay. */
  hosted_page: string
  amount_minor: string
  currency: string
  security_token_hash: string
  status: CardPaymentStatus
  /** ISO time from which the reconciliation job reads the order if it is still pending. */
  poll_after?: string
  /** Why the payment failed or was cancelled, for the storefront to show. */
  reason?: string
  /** AUTHORIZATION operation (EXPLICIT) or CAPTURE operation (IMPLICIT) that paid. */
  payment_operation_id?: string
  capture_operation_id?: string
}

export function readCardSessionData(data: Record<string, unknown> | undefined): Partial<CardSessionData> {
  return (data ?? {}) as Partial<CardSessionData>
}

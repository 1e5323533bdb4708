/**
 * The shapes the admin routes under /admin/nexi answer with, shared by the routes and the
 * admin extensions (src/admin), so the widget and the routes cannot drift apart.
 * Amounts are exact decimal strings in major units ("12.50"), with the currency beside them;
 * the gateway's own records (minor units) are passed through untouched where a route proxies one.
 * Only types come from elsewhere, so the admin bundle takes nothing else with them.
 */
import type { LinkView } from "../core/card/payment-links"

export interface NexiMoney {
  /** Exact decimal in major units, e.g. "12.50" (EUR) or "1200" (JPY). */
  amount: string
  /** ISO 4217, upper case. */
  currency: string
}

export interface NexiTimelineOperation {
  operation_id: string
  type: string
  result: string
  amount: NexiMoney | null
  time: string | null
  channel: string | null
  /** The operation this CANCEL or VOID undid, if it is one. */
  cancelled_operation_id: string | null
  /** What this operation undid ("Cancels 908387210732492") or what undid it ("Cancelled by 427882645072667"). */
  note: string | null
  warnings: Array<{ code: string; description: string }>
  /** True for the CAPTURE the gateway would let staff cancel now: executed, not cancelled, no refund on it. */
  cancellable: boolean
}

export interface NexiCardPaymentView {
  kind: "card"
  payment_id: string
  provider_id: string
  /** The provider as staff read it: "Nexi card" (provider_id is Medusa's pp_nexi_nexi). */
  provider_name: string
  gateway_order_id: string
  circuit: string | null
  /** As the gateway gives it (already masked), e.g. "************0004". */
  masked_card: string | null
  three_ds: string | null
  authorized: NexiMoney
  captured: NexiMoney
  refunded: NexiMoney
  last_operation_type: string | null
  /** The most staff may capture now (authorized and no capture holding money), or null: Capture is not offered. */
  capturable: NexiMoney | null
  /** The most staff may refund now (captured less refunded and pending refunds), or null: Refund is not offered. */
  refundable: NexiMoney | null
  operations: NexiTimelineOperation[]
}

export interface NexiMobileTransition {
  from: string | null
  to: string | null
  event: string | null
  time: string | null
}

export interface NexiMobilePaymentView {
  kind: "mobile"
  payment_id: string
  provider_id: string
  /** The provider as staff read it: the scheme's name, "Mobile payment B". */
  provider_name: string
  scheme: string
  transaction_id: string
  state: string | null
  amount: NexiMoney | null
  transitions: NexiMobileTransition[]
}

export type NexiPaymentView = NexiCardPaymentView | NexiMobilePaymentView

/**
 * A money write of a payment that needs staff's attention: its outcome at the gateway is not
 * known yet, the scheme rejected (or has not yet settled) a mobile refund Medusa already counts, or
 * the gateway refused a capture or refund whose Medusa record stands.
 */
export interface NexiLedgerIssue {
  write_id: string
  /** The ledger's kind: capture, refund, void, cancel_capture, moto, apm_refund, apm_reversal. */
  kind: string
  /**
   * outcome_unknown: do not repeat the write; scheme_rejected: the money did not move; scheme_pending: not settled
   * yet; refused_with_record: Medusa records money the gateway refused to move; unrecorded_refund: the mobile
   * payment service refunded money Medusa does not show.
   */
  problem: "outcome_unknown" | "scheme_rejected" | "scheme_pending" | "refused_with_record" | "unrecorded_refund"
  amount: NexiMoney
  /** ISO 8601: when the plugin recorded the write, before sending it. */
  requested_at: string
  /** What happened and what to do, in words for staff. */
  message: string
}

/** A payment in the order view, with what the ledger says needs attention on it. */
export type NexiOrderPayment = NexiPaymentView & { ledger_issues: NexiLedgerIssue[] }

/**
 * A gateway order or mobile transaction the plugin released by itself (voided or refunded)
 * because its money arrived for a cart that no longer wanted it (paid twice, or paid late).
 */
export interface NexiReleasedPayment {
  /** The gateway's orderId (card) or the service's transactionId (mobile). */
  gateway_ref: string
  kind: "card" | "mobile"
  /** The provider's identifier: `nexi`, `nexi-apm-psp-b`, ... */
  provider_identifier: string
  cart_id: string | null
  /** The Medusa order the cart became, if it did. */
  order_id: string | null
  /** Exact decimal in major units. */
  amount: string
  currency: string
  /** ISO 8601. */
  released_at: string | null
  /** Why it was released and how, in words for staff. */
  note: string | null
}

/** GET /admin/nexi/medusa-orders/:id/payments */
export interface NexiOrderPaymentsResponse {
  order_id: string
  payments: NexiOrderPayment[]
  /** Payments of this order's cart the plugin released, newest first (empty for an order without a cart). */
  released_payments: NexiReleasedPayment[]
  /** What the order owes that staff may collect now (a payment link, a saved card), or null: nothing is offered. */
  owed: NexiMoney | null
  /**
   * True while a Nexi payment of the order is authorized and nothing of it captured: confirming an
   * order edit that leaves money owed makes Medusa cancel that payment (the plugin voids it at
   * Nexi), and the order then owes its whole new total. Staff should capture first.
   */
  edit_cancels_authorization: boolean
}

/** GET /admin/nexi/released-payments?limit= */
export interface NexiReleasedPaymentsResponse {
  released_payments: NexiReleasedPayment[]
}

/** POST /admin/nexi/payments/:id/cancel-capture and POST /admin/nexi/payments/:id/sync */
export interface NexiPaymentActionResponse {
  payment: NexiPaymentView
  /** What the action did, in words a member of staff can act on. */
  message: string
}

/** GET /admin/nexi/payment-methods (the merchant's methods, from the gateway) */
export interface NexiGatewayPaymentMethodsResponse {
  payment_methods: Array<{
    circuit: string
    method_type: string
    image_link: string | null
    recurring_supported: boolean
    one_click_supported: boolean
  }>
}

/** The error body of every /admin/nexi route (Medusa's error handler shape). */
export interface NexiAdminErrorResponse {
  type: string
  message: string
}

/**
 * POST /admin/nexi/moto and POST /admin/nexi/medusa-orders/:id/saved-card-charges: a charge staff
 * made, recorded on the order's payment collection (a draft order keeps its id once converted).
 */
export interface NexiStaffChargeResponse extends NexiPaymentActionResponse {
  order_id: string
  /** As the provider's captureType says: captured at once (IMPLICIT) or authorized, for staff to capture. */
  status: "authorized" | "captured"
}

/** GET /admin/nexi/moto/orders?q=: the newest orders that owe money staff may collect (what a MOTO payment would charge). */
export interface NexiOwingOrdersResponse {
  orders: Array<{
    id: string
    display_id: number
    email: string | null
    /** The names on the shipping address, as staff ask the customer on the phone. */
    customer_name: string | null
    /** What the order owes now: what a MOTO payment charges. */
    owed: NexiMoney
  }>
}

/** A saved card staff may charge for an order: active, the order customer's, with their consent. */
export interface NexiChargeableCard {
  id: string
  circuit: string | null
  masked_pan: string | null
  expiry: string | null
}

/** GET /admin/nexi/medusa-orders/:id/saved-card-charges: what "Charge saved card" offers. */
export interface NexiSavedCardChargeOptions {
  /** What the order owes now, or null when it owes nothing that staff may collect (`refusal` says why). */
  owed: NexiMoney | null
  refusal: string | null
  cards: NexiChargeableCard[]
}

/** POST /admin/nexi/card-verifications */
export interface NexiCardVerificationResponse {
  operation_id: string
  /** The gateway's operation result: EXECUTED (the card is valid) or DECLINED. */
  result: string
  /** Whether the gateway confirmed the card (the read model found the verification executed): what the admin shows. */
  valid: boolean
  circuit: string | null
  /** As the gateway gives it (already masked). */
  masked_card: string | null
}

/** One check of GET /admin/nexi/doctor (and the nexi-doctor CLI). */
export interface NexiDoctorCheck {
  /** Stable: api-key, environment, notification-url, return-urls, currencies, apm-credentials, clock, capture-type. */
  id: string
  title: string
  status: "pass" | "fail" | "warn"
  /** What was found, in words a merchant can act on. Never carries a secret. */
  detail: string
  /** What to change, when there is something to change. */
  fix?: string
}

/** GET /admin/nexi/doctor: the configuration check a merchant runs before going live. */
export interface NexiDoctorResponse {
  checks: NexiDoctorCheck[]
  /** True when a check that blocks going live failed (API key, notification URL, return URLs, currencies, APM credentials). */
  blocking: boolean
}

/** A customer's saved card as staff see it, every state included. */
export interface NexiCustomerSavedCard {
  id: string
  /** pending until the gateway confirms; failed; unsupported (the circuit has no one-click); deleted by the customer. */
  state: "pending" | "active" | "failed" | "unsupported" | "deleted"
  circuit: string | null
  masked_pan: string | null
  expiry: string | null
  /** checkout: saved while paying; verify: saved from the account page, nothing charged. */
  saved_while: "checkout" | "verify"
  /** The customer consented to the shop charging the card without them (contract MIT_UNSCHEDULED). */
  allows_merchant_charges: boolean
  /** ISO 8601. */
  created_at: string
  removed_at: string | null
  /**
   * A deleted card's contract at the gateway: `ended`; `pending` while the job retries its
   * deactivation (`message` says why it failed); `not_requested` for a card deleted before the
   * plugin ended contracts. Null for a card not deleted.
   */
  gateway_end: { state: "ended" | "pending" | "not_requested"; message: string | null } | null
}

/** GET /admin/nexi/customers/:id/saved-cards */
export interface NexiCustomerSavedCardsResponse {
  saved_cards: NexiCustomerSavedCard[]
}

/** A Nexi payment link of an order (docs/admin.md, "Payment links"): the core's view of it, and its session. */
export interface NexiPaymentLink extends LinkView {
  /** The Medusa payment session the link pays. */
  session_id: string
}

/** GET and POST /admin/nexi/orders/:orderId/payment-links, and a cancel: the order's links, newest first. */
export interface NexiPaymentLinksResponse {
  order_id: string
  payment_links: NexiPaymentLink[]
  message?: string
}

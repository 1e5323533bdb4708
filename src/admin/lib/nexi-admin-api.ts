/**
 * The calls the admin extensions make to the plugin's /admin/nexi routes, and to Medusa's own
 * payment routes for capture and refund (so Medusa's workflows record them and the plugin
 * moves exactly that amount at Nexi), with the admin's own session cookie (the dashboard
 * authenticates by session by default). The shapes are the routes' contracts, so a change
 * there breaks the build here instead of the page.
 */
import type { AdminPaymentResponse } from "@medusajs/framework/types"
import type {
  NexiCardVerificationResponse,
  NexiCustomerSavedCardsResponse,
  NexiDoctorResponse,
  NexiGatewayPaymentMethodsResponse,
  NexiOrderPaymentsResponse,
  NexiPaymentActionResponse,
  NexiPaymentLinksResponse,
  NexiReleasedPaymentsResponse,
  NexiSavedCardChargeOptions,
  NexiStaffChargeResponse,
} from "../../staff/contract"
import { requestErrorOf } from "./api-errors"
import { adminApiUrl, backendUrl } from "./api-url"
import type { CardBody } from "./card-form"

async function request<T>(
  path: string,
  init: { method: "GET" | "POST"; body?: unknown } = { method: "GET" },
): Promise<T> {
  const answer = await fetch(adminApiUrl(backendUrl(), path), {
    method: init.method,
    credentials: "include",
    headers: { accept: "application/json", ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await answer.text()
  if (!answer.ok) throw requestErrorOf(answer.status, text)
  return JSON.parse(text) as T
}

const id = (value: string) => encodeURIComponent(value)

/** Which kind of order a MOTO payment is for: the MOTO route's body member naming it. */
export type MotoTarget = "draft_order_id" | "order_id"

/** A draft order or order as the MOTO form lists it, with only the fields it asks Medusa for. */
export interface MotoCandidate {
  id: string
  display_id: number
  email: string | null
  currency_code: string
  /** Medusa's total, in major units (shown only; the MOTO route decides the amount). */
  total: number
  created_at: string
  shipping_address?: { first_name?: string | null; last_name?: string | null } | null
  /** Orders only: whether Medusa holds the order paid. */
  payment_status?: string
}

/** Medusa's order lists, newest first: `q` searches the display id, email and address names. */
const MOTO_LISTS: Record<MotoTarget, { path: string; member: "draft_orders" | "orders"; fields: string }> = {
  draft_order_id: {
    path: "/admin/draft-orders",
    member: "draft_orders",
    fields: "id,display_id,email,currency_code,total,created_at,shipping_address.first_name,shipping_address.last_name",
  },
  order_id: {
    path: "/admin/orders",
    member: "orders",
    fields:
      "id,display_id,email,currency_code,total,created_at,payment_status,shipping_address.first_name,shipping_address.last_name",
  },
}

/** How many candidates the MOTO form lists at once: enough to pick from, a search narrows the rest. */
const MOTO_CANDIDATES = 10

/** The Medusa request that lists MOTO candidates, and the answer's member holding them. */
export function motoCandidatesRequest(
  target: MotoTarget,
  search: string,
): { path: string; member: "draft_orders" | "orders" } {
  const list = MOTO_LISTS[target]
  const query = new URLSearchParams({ fields: list.fields, order: "-created_at", limit: String(MOTO_CANDIDATES) })
  if (search) query.set("q", search)
  return { path: `${list.path}?${query}`, member: list.member }
}

export const nexiAdminApi = {
  orderPayments: (orderId: string) =>
    request<NexiOrderPaymentsResponse>(`/admin/nexi/medusa-orders/${id(orderId)}/payments`),

  cancelCapture: (paymentId: string, body: { operation_id: string; reason: string }) =>
    request<NexiPaymentActionResponse>(`/admin/nexi/payments/${id(paymentId)}/cancel-capture`, {
      method: "POST",
      body,
    }),

  /** Medusa's POST /admin/payments/:id/capture (AdminCreatePaymentCapture: a positive JSON number). */
  capture: (paymentId: string, body: { amount: number }) =>
    request<AdminPaymentResponse>(`/admin/payments/${id(paymentId)}/capture`, { method: "POST", body }),

  /** Medusa's POST /admin/payments/:id/refund (AdminCreatePaymentRefund; refund_reason_id is optional and not asked). */
  refund: (paymentId: string, body: { amount: number; note?: string }) =>
    request<AdminPaymentResponse>(`/admin/payments/${id(paymentId)}/refund`, { method: "POST", body }),

  sync: (paymentId: string) =>
    request<NexiPaymentActionResponse>(`/admin/nexi/payments/${id(paymentId)}/sync`, { method: "POST" }),

  paymentMethods: () => request<NexiGatewayPaymentMethodsResponse>("/admin/nexi/payment-methods"),

  releasedPayments: () => request<NexiReleasedPaymentsResponse>("/admin/nexi/released-payments"),

  customerSavedCards: (customerId: string) =>
    request<NexiCustomerSavedCardsResponse>(`/admin/nexi/customers/${id(customerId)}/saved-cards`),

  /** The configuration check (GET /admin/nexi/doctor): reads the gateway, so only on demand. */
  doctor: () => request<NexiDoctorResponse>("/admin/nexi/doctor"),

  verifyCard: (body: { card: CardBody; customer_email?: string }) =>
    request<NexiCardVerificationResponse>("/admin/nexi/card-verifications", { method: "POST", body }),

  /** Medusa's GET /admin/draft-orders or /admin/orders, searched with `q` (empty: the newest). */
  motoCandidates: async (target: MotoTarget, search: string): Promise<MotoCandidate[]> => {
    const { path, member } = motoCandidatesRequest(target, search)
    return (await request<Record<string, MotoCandidate[]>>(path))[member] ?? []
  },

  moto: (body: ({ draft_order_id: string } | { order_id: string }) & { card: CardBody; card_holder_name?: string }) =>
    request<NexiStaffChargeResponse>("/admin/nexi/moto", { method: "POST", body }),

  paymentLinks: (orderId: string) =>
    request<NexiPaymentLinksResponse>(`/admin/nexi/medusa-orders/${id(orderId)}/payment-links`),

  createPaymentLink: (body: { order_id: string; expiry_days: number; amount?: string }) =>
    request<NexiPaymentLinksResponse>("/admin/nexi/payment-links", { method: "POST", body }),

  cancelPaymentLink: (orderId: string, linkId: string) =>
    request<NexiPaymentLinksResponse>(`/admin/nexi/medusa-orders/${id(orderId)}/payment-links/${id(linkId)}/cancel`, {
      method: "POST",
    }),

  savedCardChargeOptions: (orderId: string) =>
    request<NexiSavedCardChargeOptions>(`/admin/nexi/medusa-orders/${id(orderId)}/saved-card-charges`),

  chargeSavedCard: (orderId: string, body: { payment_method_id: string; amount?: string }) =>
    request<NexiStaffChargeResponse>(`/admin/nexi/medusa-orders/${id(orderId)}/saved-card-charges`, {
      method: "POST",
      body,
    }),
}

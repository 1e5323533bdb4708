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
  NexiMoney,
  NexiOrderPaymentsResponse,
  NexiOwingOrdersResponse,
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

/** A draft order or order as the MOTO form lists it. */
export interface MotoCandidate {
  id: string
  display_id: number
  email: string | null
  customer_name: string | null
  /** What the MOTO payment charges (shown only; the route decides): a draft's total, an order's unpaid balance. */
  amount: NexiMoney
}

/** A draft order as Medusa's list answers the fields asked for below. */
interface DraftOrderRow {
  id: string
  display_id: number
  email: string | null
  currency_code: string
  total: number
  shipping_address?: { first_name?: string | null; last_name?: string | null } | null
}

/**
 * Where the MOTO form's candidates come from: draft orders from Medusa's own list, newest first
 * (`q` searches the display id, email and address names); orders from the plugin's list of those
 * that owe money (the same search), since Medusa's list cannot tell an unpaid balance apart.
 */
const MOTO_LISTS: Record<
  MotoTarget,
  { path: string; member: "draft_orders" | "orders"; query: Record<string, string> }
> = {
  draft_order_id: {
    path: "/admin/draft-orders",
    member: "draft_orders",
    query: {
      fields: "id,display_id,email,currency_code,total,shipping_address.first_name,shipping_address.last_name",
      order: "-created_at",
      limit: "10",
    },
  },
  order_id: { path: "/admin/nexi/moto/orders", member: "orders", query: {} },
}

/** The request that lists MOTO candidates, and the answer's member holding them. */
export function motoCandidatesRequest(
  target: MotoTarget,
  search: string,
): { path: string; member: "draft_orders" | "orders" } {
  const list = MOTO_LISTS[target]
  const query = new URLSearchParams(list.query)
  if (search) query.set("q", search)
  return { path: `${list.path}?${query}`, member: list.member }
}

/** One row of that answer as the form lists it. */
export function motoCandidateOf(
  target: MotoTarget,
  row: DraftOrderRow | NexiOwingOrdersResponse["orders"][number],
): MotoCandidate {
  if (target === "order_id") {
    const { owed, ...order } = row as NexiOwingOrdersResponse["orders"][number]
    return { ...order, amount: owed }
  }
  const draft = row as DraftOrderRow
  const name = [draft.shipping_address?.first_name, draft.shipping_address?.last_name].filter(Boolean).join(" ")
  return {
    id: draft.id,
    display_id: draft.display_id,
    email: draft.email,
    customer_name: name || null,
    amount: { amount: String(draft.total), currency: draft.currency_code.toUpperCase() },
  }
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

  /** Draft orders, or orders that owe money, searched with `q` (empty: the newest). */
  motoCandidates: async (target: MotoTarget, search: string): Promise<MotoCandidate[]> => {
    const { path, member } = motoCandidatesRequest(target, search)
    const rows = (await request<Record<string, Array<Parameters<typeof motoCandidateOf>[1]>>>(path))[member] ?? []
    return rows.map((row) => motoCandidateOf(target, row))
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

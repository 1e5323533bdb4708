/**
 * Whether the order the admin already loaded has a Nexi payment, so the widget asks the
 * gateway nothing for the (many) orders paid otherwise. The order page loads
 * payment_collections.payments; when a page gives an order without them, the answer is
 * "unknown" and the widget asks the route, which knows.
 */
import { isNexiProviderId } from "../../core/provider-ids"

export type NexiPaymentPresence = "yes" | "no" | "unknown"

interface OrderWithPayments {
  payment_collections?: Array<{ payments?: Array<{ provider_id?: string | null }> | null }> | null
}

export function nexiPaymentPresence(order: OrderWithPayments | null | undefined): NexiPaymentPresence {
  const collections = order?.payment_collections
  if (!Array.isArray(collections)) return "unknown"
  const paymentLists = collections.map((collection) => collection.payments)
  if (!paymentLists.every(Array.isArray)) return "unknown"
  const found = paymentLists.some((payments) => payments.some((payment) => isNexiProviderId(payment.provider_id)))
  return found ? "yes" : "no"
}

/**
 * The order page's view of its Nexi payments (GET /admin/nexi/medusa-orders/:id/payments):
 * each payment read live from its service with what the ledger says needs attention on it,
 * and the payments of the order's cart the plugin released by itself.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerOf } from "../core/store-entries"
import type { NexiOrderPayment, NexiOrderPaymentsResponse, NexiPaymentView } from "./contract"
import { ledgerIssuesOfPayment } from "./ledger-issues"
import { nexiPaymentsOfOrder } from "./nexi-payments"
import { cartOfOrder } from "./order-carts"
import { readPaymentView } from "./payment-view"
import { releasedPayments } from "./released-payments"

/** One cart is released at most a handful of times (once per extra payment); this bounds a pathological one. */
const RELEASED_PER_ORDER = 50

/** The ledger's key of a payment: its gateway order (card) or its service transaction (mobile). */
function gatewayRefOf(view: NexiPaymentView): string {
  return view.kind === "card" ? view.gateway_order_id : view.transaction_id
}

export async function orderPaymentsView(
  container: MedusaContainer,
  orderId: string,
): Promise<NexiOrderPaymentsResponse> {
  const records = await nexiPaymentsOfOrder(container, orderId)
  const ledger = ledgerOf(container)
  const payments = await Promise.all(
    records.map(async (record): Promise<NexiOrderPayment> => {
      const view = await readPaymentView(container, record)
      return { ...view, ledger_issues: await ledgerIssuesOfPayment(ledger, gatewayRefOf(view)) }
    }),
  )
  const cartId = await cartOfOrder(container, orderId)
  const released = cartId ? await releasedPayments(container, { cartIds: [cartId], limit: RELEASED_PER_ORDER }) : []
  return { order_id: orderId, payments, released_payments: released }
}

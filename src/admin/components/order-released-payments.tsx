/**
 * On the order page: the payments of this order's cart the plugin released by itself (a second
 * payment, or one that came late), so staff can tell a shopper who sees an extra charge come
 * and go that it was given back. Nothing when there are none.
 */
import { Text } from "@medusajs/ui"
import type { NexiReleasedPayment } from "../../staff/contract"
import { ReleasedPaymentsTable } from "./released-payments-table"

export function OrderReleasedPayments(props: { payments: NexiReleasedPayment[] }) {
  if (!props.payments.length) return null
  return (
    <div data-testid="nexi-order-released-payments">
      <div className="px-6 py-4">
        <Text size="small" leading="compact" weight="plus">
          Payments released automatically
        </Text>
        <Text size="small" className="text-ui-fg-subtle">
          Further payments of this order's cart, which the plugin gave back to the shopper.
        </Text>
      </div>
      {/* The side column is narrow: the table scrolls sideways rather than squeezing the note. */}
      <div className="overflow-x-auto">
        <ReleasedPaymentsTable payments={props.payments} showCart={false} />
      </div>
    </div>
  )
}

/**
 * "Nexi payment" on the order page: every Nexi payment of the order read live from the gateway
 * (GET /admin/nexi/medusa-orders/:id/payments), with "Capture…" and "Refund…" of an exact amount
 * (through Medusa's own payment routes), "Cancel capture" and "Sync from gateway"; above each
 * payment the ledger's warnings on it, and at the end the payments of the order's cart the plugin
 * released by itself, "Charge saved card" when the order owes money, and the order's Nexi
 * payment links with "Payment link" to create one when it does. While a payment is authorized and
 * nothing of it captured, a warning says to capture before editing the order (an edit makes
 * Medusa cancel the authorization). Orders paid with another provider show nothing and cost no
 * gateway call.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Alert, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { CardPaymentSection } from "../components/card-payment-section"
import { LedgerIssues } from "../components/ledger-issues"
import { MobilePaymentSection } from "../components/mobile-payment-section"
import { OrderReleasedPayments } from "../components/order-released-payments"
import { PaymentLinksSection } from "../components/payment-links-section"
import { SavedCardChargeSection } from "../components/saved-card-charge-section"
import { messageOf } from "../lib/api-errors"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { nexiPaymentPresence } from "../lib/order-payments"
import { useAdminQuery } from "../lib/use-admin-query"

const NexiOrderPaymentWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const presence = nexiPaymentPresence(order)
  const query = useAdminQuery(presence === "no" ? null : order.id, () => nexiAdminApi.orderPayments(order.id))
  // The last action's outcome stays on screen (a toast fades) until the next action.
  const [notice, setNotice] = useState<string | null>(null)

  if (presence === "no") return null
  if (query.data && query.data.payments.length === 0 && query.data.released_payments.length === 0) return null

  const onDone = (message: string) => {
    toast.success("Nexi", { description: message })
    setNotice(message)
    query.reload()
  }

  return (
    <Container className="divide-y p-0" data-testid="nexi-order-payment">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Nexi payment</Heading>
        {query.loading && query.data ? (
          <Text size="small" className="text-ui-fg-muted">
            Refreshing...
          </Text>
        ) : null}
      </div>
      {notice ? (
        <div className="bg-ui-bg-subtle flex items-center justify-between gap-x-4 px-6 py-3">
          <Text size="small" className="text-ui-fg-subtle" role="status" data-testid="nexi-notice">
            {notice}
          </Text>
          {/* Medusa's own sections (payments, totals) keep the order they loaded; the widget cannot
              refresh them, so staff reload to see there what the action recorded (a refund). */}
          <Button size="small" variant="secondary" className="shrink-0" onClick={() => window.location.reload()}>
            Reload order
          </Button>
        </div>
      ) : null}
      {query.error ? (
        <div className="flex items-center justify-between gap-x-4 px-6 py-4">
          <Text size="small" className="text-ui-fg-error" role="alert" data-testid="nexi-error">
            Could not read the payment from Nexi: {messageOf(query.error)}
          </Text>
          <Button size="small" variant="secondary" className="shrink-0" onClick={query.reload} data-testid="nexi-retry">
            Try again
          </Button>
        </div>
      ) : null}
      {query.data?.edit_cancels_authorization ? (
        <div className="px-6 py-4">
          <Alert variant="warning" data-testid="nexi-edit-warning">
            Capture the payment before editing this order. It is authorized and nothing of it is captured yet: when an
            order edit is confirmed, Medusa cancels the authorization (the plugin voids it at Nexi), and the customer
            then has to pay the whole new total again.
          </Alert>
        </div>
      ) : null}
      {!query.data && query.loading ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4" data-testid="nexi-loading">
          Reading the payment from Nexi...
        </Text>
      ) : null}
      {query.data?.payments.map((payment) => (
        <div key={payment.payment_id}>
          <LedgerIssues issues={payment.ledger_issues} />
          {payment.kind === "card" ? (
            <CardPaymentSection payment={payment} onDone={onDone} />
          ) : (
            <MobilePaymentSection payment={payment} onDone={onDone} />
          )}
        </div>
      ))}
      {query.data ? <OrderReleasedPayments payments={query.data.released_payments} /> : null}
      {query.data ? <SavedCardChargeSection orderId={order.id} onDone={onDone} /> : null}
      {query.data ? <PaymentLinksSection orderId={order.id} owed={query.data.owed} onDone={onDone} /> : null}
    </Container>
  )
}

export const config = defineWidgetConfig({
  // The side column, under the customer and the activity, beside Medusa's Payments section.
  // Medusa 2.21's layout composer ignores the ".before"/".after" suffixes: a widget goes at the
  // end of its column, and the main column ends with Metadata and JSON, far below the payment.
  // Staff can still move it with the page's layout settings.
  zone: "order.details.side",
  id: "medusa-payment-nexi:order-payment",
})

export default NexiOrderPaymentWidget

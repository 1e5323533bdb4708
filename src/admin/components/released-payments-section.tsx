/**
 * Settings > Nexi: every payment the plugin released by itself (GET /admin/nexi/released-payments,
 * read from the plugin's ledger, no gateway call), so staff can answer a shopper who sees a
 * second charge come and go, and find the order it was about.
 */
import { Button, Container, Heading, Text } from "@medusajs/ui"
import type { NexiReleasedPaymentsResponse } from "../../staff/contract"
import { messageOf } from "../lib/api-errors"
import type { AdminQuery } from "../lib/use-admin-query"
import { ReleasedPaymentsTable } from "./released-payments-table"

export function ReleasedPaymentsSection(props: { query: AdminQuery<NexiReleasedPaymentsResponse> }) {
  const { query } = props
  const payments = query.data?.released_payments
  return (
    <Container className="divide-y p-0" data-testid="nexi-released-payments">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Payments released automatically</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Money that reached Nexi for a cart that no longer wanted it (paid twice, or paid late), which the plugin
            gave back.
          </Text>
        </div>
        <Button
          size="small"
          variant="secondary"
          isLoading={query.loading}
          onClick={query.reload}
          data-testid="nexi-released-payments-reload"
        >
          Reload
        </Button>
      </div>
      {query.error ? (
        <Text
          size="small"
          className="text-ui-fg-error px-6 py-4"
          role="alert"
          data-testid="nexi-released-payments-error"
        >
          Could not read the released payments: {messageOf(query.error)}
        </Text>
      ) : null}
      {!payments && query.loading ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4">
          Reading the released payments...
        </Text>
      ) : null}
      {payments && payments.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4" data-testid="nexi-released-payments-empty">
          The plugin has not released any payment: every payment Nexi took belongs to an order.
        </Text>
      ) : null}
      {payments && payments.length > 0 ? <ReleasedPaymentsTable payments={payments} showCart /> : null}
    </Container>
  )
}

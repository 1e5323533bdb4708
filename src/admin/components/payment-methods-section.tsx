/**
 * The payment methods Nexi has enabled for the merchant's terminal (GET /admin/nexi/payment-methods,
 * read from the gateway), so staff can see what shoppers may be offered without opening
 * Nexi's back office.
 */
import { Badge, Button, Container, Heading, Table, Text } from "@medusajs/ui"
import type { NexiGatewayPaymentMethodsResponse } from "../../staff/contract"
import { messageOf } from "../lib/api-errors"
import { methodTypeLabel } from "../lib/status"
import type { AdminQuery } from "../lib/use-admin-query"

type Method = NexiGatewayPaymentMethodsResponse["payment_methods"][number]

export function PaymentMethodsSection(props: { query: AdminQuery<NexiGatewayPaymentMethodsResponse> }) {
  const { query } = props
  const methods = query.data?.payment_methods
  return (
    <Container className="divide-y p-0" data-testid="nexi-payment-methods">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Payment methods</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            What Nexi has enabled for this store's terminal.
          </Text>
        </div>
        <Button
          size="small"
          variant="secondary"
          isLoading={query.loading}
          onClick={query.reload}
          data-testid="nexi-payment-methods-reload"
        >
          Reload
        </Button>
      </div>
      {query.error ? (
        <Text size="small" className="text-ui-fg-error px-6 py-4" role="alert" data-testid="nexi-payment-methods-error">
          Could not read the payment methods from Nexi: {messageOf(query.error)}
        </Text>
      ) : null}
      {!methods && query.loading ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4">
          Reading the payment methods from Nexi...
        </Text>
      ) : null}
      {methods && methods.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4">
          Nexi reports no payment methods for this terminal.
        </Text>
      ) : null}
      {methods && methods.length > 0 ? (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell />
              <Table.HeaderCell>Circuit</Table.HeaderCell>
              <Table.HeaderCell>Type</Table.HeaderCell>
              <Table.HeaderCell>Recurring</Table.HeaderCell>
              <Table.HeaderCell>One-click</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {methods.map((method) => (
              <MethodRow key={`${method.method_type}:${method.circuit}`} method={method} />
            ))}
          </Table.Body>
        </Table>
      ) : null}
    </Container>
  )
}

function MethodRow({ method }: { method: Method }) {
  return (
    <Table.Row data-testid="nexi-payment-method-row" data-circuit={method.circuit}>
      <Table.Cell className="w-16">
        {method.image_link ? (
          <img
            src={method.image_link}
            alt={`${method.circuit} logo`}
            className="h-6 max-w-[48px] object-contain"
            loading="lazy"
          />
        ) : null}
      </Table.Cell>
      <Table.Cell data-testid="nexi-payment-method-circuit">{method.circuit}</Table.Cell>
      <Table.Cell>{methodTypeLabel(method.method_type)}</Table.Cell>
      <Table.Cell>
        <Flag on={method.recurring_supported} />
      </Table.Cell>
      <Table.Cell>
        <Flag on={method.one_click_supported} />
      </Table.Cell>
    </Table.Row>
  )
}

function Flag({ on }: { on: boolean }) {
  return (
    <Badge size="2xsmall" color={on ? "green" : "grey"}>
      {on ? "Yes" : "No"}
    </Badge>
  )
}

/**
 * Payments the plugin released by itself: when, the gateway order or mobile transaction, the
 * cart it was for and the order that cart became, the amount, and the plugin's note of what
 * happened. Settings > Nexi lists all of them; the order page those of its own cart, where the
 * cart column would only repeat the order shown.
 */
import { Badge, Table, Text } from "@medusajs/ui"
import type { NexiReleasedPayment } from "../../staff/contract"
import { orderPageUrl } from "../lib/admin-links"
import { formatMoney, NO_VALUE } from "../lib/money"
import { gatewayRefLabel } from "../lib/released-payments"
import { formatTime } from "../lib/time"

export function ReleasedPaymentsTable(props: { payments: NexiReleasedPayment[]; showCart: boolean }) {
  return (
    <Table data-testid="nexi-released-payments-table">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>Released</Table.HeaderCell>
          <Table.HeaderCell>Gateway order / transaction</Table.HeaderCell>
          {props.showCart ? <Table.HeaderCell>Cart / order</Table.HeaderCell> : null}
          <Table.HeaderCell>Amount</Table.HeaderCell>
          <Table.HeaderCell>What happened</Table.HeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {props.payments.map((payment) => (
          <Table.Row
            key={payment.gateway_ref}
            data-testid="nexi-released-payment-row"
            data-gateway-ref={payment.gateway_ref}
          >
            <Table.Cell className="text-nowrap">{formatTime(payment.released_at)}</Table.Cell>
            <Table.Cell>
              <div className="flex flex-col">
                <span className="font-mono">{payment.gateway_ref}</span>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {gatewayRefLabel(payment)}
                  {" · "}
                  <Badge size="2xsmall" className="font-mono">
                    {payment.provider_identifier}
                  </Badge>
                </Text>
              </div>
            </Table.Cell>
            {props.showCart ? (
              <Table.Cell>
                <CartAndOrder payment={payment} />
              </Table.Cell>
            ) : null}
            <Table.Cell className="text-nowrap">
              {formatMoney({ amount: payment.amount, currency: payment.currency })}
            </Table.Cell>
            {/* The note is the plugin's own sentence: whole, never cut, since it says what staff may need to tell the shopper. */}
            <Table.Cell className="whitespace-normal">{payment.note ?? NO_VALUE}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  )
}

function CartAndOrder({ payment }: { payment: NexiReleasedPayment }) {
  return (
    <div className="flex flex-col">
      <span className="font-mono">{payment.cart_id ?? NO_VALUE}</span>
      {payment.order_id ? (
        <a
          href={orderPageUrl(payment.order_id)}
          className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover font-mono"
          data-testid="nexi-released-order-link"
        >
          {payment.order_id}
        </a>
      ) : (
        <Text size="xsmall" className="text-ui-fg-subtle">
          No order
        </Text>
      )}
    </div>
  )
}

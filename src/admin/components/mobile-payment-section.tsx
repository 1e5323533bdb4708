/**
 * One mobile-scheme payment as the alternative-payment service reports it: the scheme, the
 * service's transaction, its state and the transitions that led there.
 */
import { Badge, StatusBadge, Table, Text } from "@medusajs/ui"
import type { NexiMobilePaymentView } from "../../staff/contract"
import { formatMoney, NO_VALUE } from "../lib/money"
import { humanizeCode, mobileStateBadge } from "../lib/status"
import { formatTime } from "../lib/time"
import { Field } from "./field"
import { SyncAction } from "./sync-action"

export function MobilePaymentSection(props: { payment: NexiMobilePaymentView; onDone: (message: string) => void }) {
  const { payment } = props
  const state = mobileStateBadge(payment.state)
  return (
    <div data-testid="nexi-payment" data-payment-id={payment.payment_id} data-payment-kind="mobile">
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Text size="small" leading="compact" weight="plus">
            Mobile payment
          </Text>
          <Badge size="2xsmall" className="font-mono">
            {payment.provider_id}
          </Badge>
        </div>
        <SyncAction paymentId={payment.payment_id} onDone={props.onDone} />
      </div>
      <div className="grid grid-cols-2 gap-4 px-6 pb-4 sm:grid-cols-4">
        <Field label="Scheme" testId="nexi-scheme">
          {payment.scheme}
        </Field>
        <Field label="Transaction" testId="nexi-transaction-id">
          <span className="font-mono">{payment.transaction_id}</span>
        </Field>
        <Field label="State" testId="nexi-mobile-state">
          <StatusBadge color={state.color}>{state.label}</StatusBadge>
        </Field>
        <Field label="Amount" testId="nexi-mobile-amount">
          {formatMoney(payment.amount)}
        </Field>
      </div>
      {payment.transitions.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle px-6 pb-4">
          The service reports no transitions for this transaction yet.
        </Text>
      ) : (
        <Table data-testid="nexi-transitions">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Time</Table.HeaderCell>
              <Table.HeaderCell>From</Table.HeaderCell>
              <Table.HeaderCell>To</Table.HeaderCell>
              <Table.HeaderCell>Event</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {payment.transitions.map((transition, index) => (
              // Transitions have no id of their own and never reorder: the position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <Table.Row key={index} data-testid="nexi-transition-row" data-to-state={transition.to ?? ""}>
                <Table.Cell className="text-nowrap">{formatTime(transition.time)}</Table.Cell>
                <Table.Cell>{transition.from ? humanizeCode(transition.from) : NO_VALUE}</Table.Cell>
                <Table.Cell>{transition.to ? humanizeCode(transition.to) : NO_VALUE}</Table.Cell>
                <Table.Cell>{transition.event ?? NO_VALUE}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </div>
  )
}

/**
 * One mobile-scheme payment as the alternative-payment service reports it: the scheme, the
 * service's transaction, its state and the transitions that led there.
 */
import { Badge, StatusBadge, Text } from "@medusajs/ui"
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
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Text size="small" leading="compact" weight="plus">
            Mobile payment
          </Text>
          {/* Medusa's id stays at hand for support, on hover. */}
          <Badge size="2xsmall" title={payment.provider_id} data-testid="nexi-provider">
            {payment.provider_name}
          </Badge>
        </div>
        <div>
          <SyncAction paymentId={payment.payment_id} onDone={props.onDone} />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-4 px-6 pb-4">
        <Field label="Scheme" testId="nexi-scheme">
          {payment.scheme}
        </Field>
        <Field label="Transaction" testId="nexi-transaction-id" wide>
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
        <ol className="divide-y border-t" data-testid="nexi-transitions">
          {payment.transitions.map((transition, index) => (
            <li
              // Transitions have no id of their own and never reorder: the position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              className="flex flex-col gap-y-1 px-6 py-3"
              data-testid="nexi-transition-row"
              data-to-state={transition.to ?? ""}
            >
              <Text size="small" leading="compact" weight="plus">
                {transition.from ? humanizeCode(transition.from) : NO_VALUE} →{" "}
                {transition.to ? humanizeCode(transition.to) : NO_VALUE}
              </Text>
              <Text size="xsmall" className="text-ui-fg-subtle">
                {transition.event ?? NO_VALUE} · {formatTime(transition.time)}
              </Text>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/**
 * One card payment as Nexi reports it: the gateway order, the card, 3-D Secure, the amounts
 * authorized / captured / refunded at the gateway, and its operations; Capture and Refund
 * when the route says the gateway would take them (`capturable`, `refundable`), for at most that.
 */
import { Badge, Copy, Text } from "@medusajs/ui"
import type { NexiCardPaymentView } from "../../staff/contract"
import { formatMoney, NO_VALUE } from "../lib/money"
import { humanizeCode, threeDSLabel } from "../lib/status"
import { CaptureAction } from "./capture-action"
import { Field } from "./field"
import { OperationsTimeline } from "./operations-timeline"
import { RefundAction } from "./refund-action"
import { SyncAction } from "./sync-action"

export function CardPaymentSection(props: { payment: NexiCardPaymentView; onDone: (message: string) => void }) {
  const { payment } = props
  return (
    <div data-testid="nexi-payment" data-payment-id={payment.payment_id} data-payment-kind="card">
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Text size="small" leading="compact" weight="plus">
            Card payment
          </Text>
          {/* Medusa's id stays at hand for support, on hover. */}
          <Badge size="2xsmall" title={payment.provider_id} data-testid="nexi-provider">
            {payment.provider_name}
          </Badge>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {payment.capturable ? (
            <CaptureAction
              paymentId={payment.payment_id}
              authorized={payment.authorized}
              remainder={payment.capturable}
              onDone={props.onDone}
            />
          ) : null}
          {payment.refundable ? (
            <RefundAction
              paymentId={payment.payment_id}
              captured={payment.captured}
              refunded={payment.refunded}
              remainder={payment.refundable}
              onDone={props.onDone}
            />
          ) : null}
          <SyncAction paymentId={payment.payment_id} onDone={props.onDone} />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-4 px-6 pb-4">
        <Field label="Gateway order" testId="nexi-gateway-order-id" wide>
          <span className="flex items-center gap-x-1 font-mono">
            {payment.gateway_order_id}
            <Copy content={payment.gateway_order_id} variant="mini" />
          </span>
        </Field>
        <Field label="Card" testId="nexi-card">
          {payment.circuit ?? NO_VALUE} {payment.masked_card ?? ""}
        </Field>
        <Field label="3-D Secure" testId="nexi-three-ds">
          {threeDSLabel(payment.three_ds)}
        </Field>
        <Field label="Last operation">
          {payment.last_operation_type ? humanizeCode(payment.last_operation_type) : NO_VALUE}
        </Field>
        <Field label="Authorized" testId="nexi-authorized">
          {formatMoney(payment.authorized)}
        </Field>
        <Field label="Captured" testId="nexi-captured">
          {formatMoney(payment.captured)}
        </Field>
        <Field label="Refunded" testId="nexi-refunded">
          {formatMoney(payment.refunded)}
        </Field>
      </div>
      <OperationsTimeline paymentId={payment.payment_id} operations={payment.operations} onDone={props.onDone} />
    </div>
  )
}

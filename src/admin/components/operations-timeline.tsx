/**
 * The gateway's operations on one card payment, oldest first, as the route reads them live:
 * what Nexi did (authorization, capture, refund, cancel), with what result and amount, when,
 * the warnings it attached, the route's note on what undid what, and "Cancel capture" on the
 * capture the route marks cancellable. A list rather than a table: the widget sits in the order
 * page's side column, beside Medusa's own activity. Each row carries data-operation-type /
 * -result so a browser test can find "the executed capture" without depending on the order.
 */
import { StatusBadge, Text } from "@medusajs/ui"
import type { NexiTimelineOperation } from "../../staff/contract"
import { formatMoney } from "../lib/money"
import { humanizeCode, operationResultBadge } from "../lib/status"
import { formatTime } from "../lib/time"
import { CancelCaptureAction } from "./cancel-capture-action"

export function OperationsTimeline(props: {
  paymentId: string
  operations: NexiTimelineOperation[]
  onDone: (message: string) => void
}) {
  if (props.operations.length === 0) {
    return (
      <Text size="small" className="text-ui-fg-subtle px-6 py-4">
        Nexi reports no operations for this payment yet.
      </Text>
    )
  }
  return (
    <ol className="divide-y border-t" data-testid="nexi-operations">
      {props.operations.map((operation) => (
        <OperationRow
          key={operation.operation_id}
          paymentId={props.paymentId}
          operation={operation}
          onDone={props.onDone}
        />
      ))}
    </ol>
  )
}

function OperationRow(props: {
  paymentId: string
  operation: NexiTimelineOperation
  onDone: (message: string) => void
}) {
  const { operation } = props
  const badge = operationResultBadge(operation.result)
  return (
    <li
      className="flex flex-col gap-y-1 px-6 py-3"
      data-testid="nexi-operation-row"
      data-operation-id={operation.operation_id}
      data-operation-type={operation.type}
      data-operation-result={operation.result}
    >
      <div className="flex items-start justify-between gap-x-3">
        <div className="flex min-w-0 flex-col" data-testid="nexi-operation-type">
          <Text size="small" leading="compact" weight="plus">
            {humanizeCode(operation.type)}
          </Text>
          <Text size="xsmall" className="text-ui-fg-muted font-mono" title="Nexi operation id">
            {operation.operation_id}
          </Text>
        </div>
        <div className="flex shrink-0 flex-col items-end gap-y-1">
          <Text size="small" leading="compact" weight="plus" data-testid="nexi-operation-amount">
            {formatMoney(operation.amount)}
          </Text>
          <span data-testid="nexi-operation-result">
            <StatusBadge color={badge.color} className="text-nowrap">
              {badge.label}
            </StatusBadge>
          </span>
        </div>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {formatTime(operation.time)}
      </Text>
      {operation.note ? (
        <Text size="xsmall" className="text-ui-fg-subtle" data-testid="nexi-operation-note">
          {operation.note}
        </Text>
      ) : null}
      {operation.warnings.length > 0 ? (
        <div data-testid="nexi-operation-warnings">
          {operation.warnings.map((warning) => (
            <Text key={`${warning.code}:${warning.description}`} size="xsmall" className="text-ui-fg-subtle">
              {warning.code}: {warning.description}
            </Text>
          ))}
        </div>
      ) : null}
      {operation.cancellable ? (
        <div className="pt-1">
          <CancelCaptureAction paymentId={props.paymentId} operation={operation} onDone={props.onDone} />
        </div>
      ) : null}
    </li>
  )
}

/**
 * The gateway's operations on one card payment, oldest first, as the route reads them live:
 * what Nexi did (authorization, capture, refund, cancel), with what result and amount, when,
 * the warnings it attached, the route's note on what undid what, and "Cancel capture" on the
 * capture the route marks cancellable. Each row carries data-operation-type / -result so a browser
 * test can find "the executed capture" without depending on the row order.
 */
import { StatusBadge, Table, Text } from "@medusajs/ui"
import type { NexiTimelineOperation } from "../../staff/contract"
import { formatMoney, NO_VALUE } from "../lib/money"
import { humanizeCode, operationResultBadge } from "../lib/status"
import { formatTime } from "../lib/time"
import { CancelCaptureAction } from "./cancel-capture-action"

export function OperationsTable(props: { paymentId: string; operations: NexiTimelineOperation[]; onDone: (message: string) => void }) {
  if (props.operations.length === 0) {
    return (
      <Text size="small" className="text-ui-fg-subtle px-6 py-4">
        Nexi reports no operations for this payment yet.
      </Text>
    )
  }
  return (
    <Table data-testid="nexi-operations">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>Operation</Table.HeaderCell>
          <Table.HeaderCell>Result</Table.HeaderCell>
          <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
          <Table.HeaderCell>Time</Table.HeaderCell>
          <Table.HeaderCell>Warnings</Table.HeaderCell>
          <Table.HeaderCell />
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {props.operations.map((operation) => (
          <OperationRow
            key={operation.operation_id}
            paymentId={props.paymentId}
            operation={operation}
            onDone={props.onDone}
          />
        ))}
      </Table.Body>
    </Table>
  )
}

function OperationRow(props: { paymentId: string; operation: NexiTimelineOperation; onDone: (message: string) => void }) {
  const { operation } = props
  const badge = operationResultBadge(operation.result)
  return (
    <Table.Row
      data-testid="nexi-operation-row"
      data-operation-id={operation.operation_id}
      data-operation-type={operation.type}
      data-operation-result={operation.result}
    >
      <Table.Cell data-testid="nexi-operation-type">
        <div className="flex flex-col py-2">
          <span>{humanizeCode(operation.type)}</span>
          <Text size="xsmall" className="text-ui-fg-muted font-mono" title="Nexi operation id">
            {operation.operation_id}
          </Text>
          {operation.note ? (
            <Text size="xsmall" className="text-ui-fg-subtle" data-testid="nexi-operation-note">
              {operation.note}
            </Text>
          ) : null}
        </div>
      </Table.Cell>
      <Table.Cell data-testid="nexi-operation-result">
        <StatusBadge color={badge.color} className="text-nowrap">
          {badge.label}
        </StatusBadge>
      </Table.Cell>
      <Table.Cell className="text-right" data-testid="nexi-operation-amount">
        {formatMoney(operation.amount)}
      </Table.Cell>
      <Table.Cell className="text-nowrap">{formatTime(operation.time)}</Table.Cell>
      <Table.Cell data-testid="nexi-operation-warnings">
        {operation.warnings.length === 0
          ? NO_VALUE
          : operation.warnings.map((warning) => (
              <Text key={`${warning.code}:${warning.description}`} size="xsmall" className="text-ui-fg-subtle">
                {warning.code}: {warning.description}
              </Text>
            ))}
      </Table.Cell>
      <Table.Cell className="text-right">
        {operation.cancellable ? <CancelCaptureAction paymentId={props.paymentId} operation={operation} onDone={props.onDone} /> : null}
      </Table.Cell>
    </Table.Row>
  )
}

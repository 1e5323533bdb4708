/**
 * "Cancel capture" on a cancellable CAPTURE row: asks why (the reason becomes the gateway
 * operation's description) and for confirmation, then rolls the capture back at Nexi; the route
 * records the cancelled amount as a refund on the Medusa payment.
 */
import { Button, Label, Textarea } from "@medusajs/ui"
import { useId, useState } from "react"
import type { NexiTimelineOperation } from "../../staff/contract"
import { CANCEL_REASON_MAX_LENGTH, cancelReasonProblem } from "../lib/cancel-reason"
import { formatMoney } from "../lib/money"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { ActionPrompt } from "./action-prompt"
import { usePaymentAction } from "./use-payment-action"

export function CancelCaptureAction(props: {
  paymentId: string
  operation: NexiTimelineOperation
  onDone: (message: string) => void
}) {
  const { paymentId, operation } = props
  const action = usePaymentAction(props.onDone)
  const [reason, setReason] = useState("")
  const reasonId = useId()

  const confirm = () => {
    const problem = cancelReasonProblem(reason)
    if (problem) return action.setError(problem)
    void action.run(() =>
      nexiAdminApi.cancelCapture(paymentId, { operation_id: operation.operation_id, reason: reason.trim() }),
    )
  }

  return (
    <>
      <Button
        size="small"
        variant="secondary"
        className="text-nowrap"
        onClick={() => {
          setReason("")
          action.onOpenChange(true)
        }}
        data-testid="nexi-cancel-capture"
      >
        Cancel capture
      </Button>
      <ActionPrompt
        open={action.open}
        onOpenChange={action.onOpenChange}
        title="Cancel capture"
        description={
          <>
            Roll back the capture of {formatMoney(operation.amount)} at Nexi. Nexi accepts this only on the day of the
            capture; later, refund instead. The cancelled amount is recorded as a refund of this payment in Medusa.
          </>
        }
        confirmLabel="Cancel capture"
        dismissLabel="Keep capture"
        confirmTestId="nexi-cancel-capture-confirm"
        variant="danger"
        busy={action.busy}
        error={action.error}
        confirmDisabled={!reason.trim()}
        onConfirm={confirm}
      >
        <div className="flex flex-col gap-y-2">
          <Label htmlFor={reasonId} size="small" weight="plus">
            Reason
          </Label>
          <Textarea
            id={reasonId}
            value={reason}
            maxLength={CANCEL_REASON_MAX_LENGTH}
            placeholder="Why the capture is cancelled (sent to Nexi)"
            onChange={(event) => setReason(event.target.value)}
            data-testid="nexi-cancel-capture-reason"
          />
        </div>
      </ActionPrompt>
    </>
  )
}

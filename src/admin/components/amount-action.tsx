/**
 * An action that moves part or all of a card payment's money through Medusa's own payment
 * routes (capture, refund): a button, then a dialog with the amount (prefilled with what is
 * left), the action's other fields, and confirmation. The amount is checked first
 * (lib/amount-entry) so staff read what is wrong before anything is sent; Medusa and the
 * gateway still decide, and their refusal is shown in the dialog, which then stays open.
 */
import { Button, Hint, Input, Label } from "@medusajs/ui"
import { type ReactNode, useId, useState } from "react"
import type { NexiMoney } from "../../staff/contract"
import { type AmountVerb, type CheckedAmount, readAmountEntry } from "../lib/amount-entry"
import { formatMoney } from "../lib/money"
import { ActionPrompt } from "./action-prompt"
import { usePaymentAction } from "./use-payment-action"

export interface AmountActionProps {
  verb: AmountVerb
  /** data-testid of the button; the dialog's are `${testId}-amount`, `${testId}-confirm`, `${testId}-confirm-error`. */
  testId: string
  title: string
  description: ReactNode
  /** What is left to capture or refund, the default amount and the upper bound. */
  remainder: NexiMoney
  /** Under the amount: where the remainder comes from. */
  hint: ReactNode
  /** Resets the action's other fields each time the dialog opens. */
  onOpen?: () => void
  /** Sends the checked amount; answers what was done, in words, for the widget's notice. */
  send: (amount: CheckedAmount) => Promise<string>
  onDone: (message: string) => void
  /** The action's other fields, below the amount. */
  children?: ReactNode
}

const VERB_LABELS: Record<AmountVerb, string> = { capture: "Capture", refund: "Refund" }

export function AmountAction(props: AmountActionProps) {
  const action = usePaymentAction(props.onDone)
  const [typed, setTyped] = useState("")
  const amountId = useId()
  const verbLabel = VERB_LABELS[props.verb]
  const entry = readAmountEntry(typed, props.remainder, props.verb)

  const open = () => {
    setTyped(props.remainder.amount)
    props.onOpen?.()
    action.onOpenChange(true)
  }

  const confirm = () => {
    if (!entry.ok) return action.setError(entry.problem)
    void action.run(async () => ({ message: await props.send(entry) }))
  }

  return (
    <>
      <Button size="small" variant="secondary" onClick={open} data-testid={props.testId}>
        {verbLabel}…
      </Button>
      <ActionPrompt
        open={action.open}
        onOpenChange={action.onOpenChange}
        title={props.title}
        description={props.description}
        // The button says exactly what will happen: the confirmation staff give is for this amount.
        confirmLabel={entry.ok ? `${verbLabel} ${formatMoney(entry.money)}` : verbLabel}
        dismissLabel="Cancel"
        confirmTestId={`${props.testId}-confirm`}
        variant="confirmation"
        busy={action.busy}
        error={action.error}
        onConfirm={confirm}
      >
        <div className="flex flex-col gap-y-4">
          <div className="flex flex-col gap-y-2">
            <Label htmlFor={amountId} size="small" weight="plus">
              Amount ({props.remainder.currency})
            </Label>
            <Input
              id={amountId}
              inputMode="decimal"
              autoComplete="off"
              value={typed}
              aria-invalid={Boolean(action.error) && !entry.ok}
              onChange={(event) => {
                setTyped(event.target.value)
                action.setError(null)
              }}
              data-testid={`${props.testId}-amount`}
            />
            <Hint>{props.hint}</Hint>
          </div>
          {props.children}
        </div>
      </ActionPrompt>
    </>
  )
}

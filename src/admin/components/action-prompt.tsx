/**
 * The confirmation dialog of every Nexi action: it stays open while the request runs and when
 * the server refuses, showing the refusal inside the dialog where staff are looking, and closes
 * only on success or when staff dismiss it.
 */
import { Button, Prompt, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

export interface ActionPromptProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: ReactNode
  confirmLabel: string
  dismissLabel: string
  /** data-testid of the confirm button, for browser tests. */
  confirmTestId: string
  variant: "danger" | "confirmation"
  busy: boolean
  /** Why the last attempt failed, shown in the dialog. */
  error: string | null
  confirmDisabled?: boolean
  onConfirm: () => void
  children?: ReactNode
}

export function ActionPrompt(props: ActionPromptProps) {
  const { open, onOpenChange, busy } = props
  return (
    <Prompt open={open} onOpenChange={(next) => (busy ? undefined : onOpenChange(next))} variant={props.variant}>
      <Prompt.Content>
        <Prompt.Header>
          <Prompt.Title>{props.title}</Prompt.Title>
          <Prompt.Description>{props.description}</Prompt.Description>
        </Prompt.Header>
        {props.children ? <div className="px-6 pt-4">{props.children}</div> : null}
        {props.error ? (
          <div className="px-6 pt-4">
            <Text size="small" className="text-ui-fg-error" role="alert" data-testid={`${props.confirmTestId}-error`}>
              {props.error}
            </Text>
          </div>
        ) : null}
        <Prompt.Footer>
          <Button size="small" variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            {props.dismissLabel}
          </Button>
          <Button
            size="small"
            variant={props.variant === "danger" ? "danger" : "primary"}
            isLoading={busy}
            disabled={props.confirmDisabled}
            onClick={props.onConfirm}
            data-testid={props.confirmTestId}
          >
            {props.confirmLabel}
          </Button>
        </Prompt.Footer>
      </Prompt.Content>
    </Prompt>
  )
}

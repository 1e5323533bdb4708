/**
 * State of one action behind a confirmation dialog: open, running, the last refusal. On
 * success the dialog closes and the route's message goes to `onDone` (the widget shows it and
 * reloads the payment from the gateway).
 */
import { useState } from "react"
import { useSubmission } from "./use-submission"

export function usePaymentAction(onDone: (message: string) => void) {
  const [open, setOpen] = useState(false)
  const submission = useSubmission()

  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) submission.setError(null)
  }

  /** `action` answers what it did in words (a route's message, or one the caller writes). */
  const run = async (action: () => Promise<{ message: string }>) => {
    const answer = await submission.submit(action)
    if (!answer) return
    setOpen(false)
    onDone(answer.message)
  }

  return { open, onOpenChange, busy: submission.busy, error: submission.error, setError: submission.setError, run }
}

/**
 * One request a member of staff starts (a form submit, a confirmed action): running or not,
 * and why the last attempt failed, in words. The running flag also keeps a double click from
 * sending the request twice.
 */
import { useRef, useState } from "react"
import { messageOf } from "../lib/api-errors"

export function useSubmission() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // State updates land after the next render; the ref stops a second click before that.
  const running = useRef(false)

  /** Runs `request`; its answer, or undefined when it failed (the error is then set). */
  const submit = async <T>(request: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined
    running.current = true
    setBusy(true)
    setError(null)
    try {
      return await request()
    } catch (failure) {
      setError(messageOf(failure))
      return undefined
    } finally {
      running.current = false
      setBusy(false)
    }
  }

  return { busy, error, setError, submit }
}

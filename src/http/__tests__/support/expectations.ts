/** Small helpers the client tests share. */
import type { NexiError } from "../../errors"

/** The error a call rejects with; fails the test when the call succeeds. */
export async function failure(promise: Promise<unknown>): Promise<NexiError> {
  try {
    await promise
  } catch (error) {
    return error as NexiError
  }
  throw new Error("expected the call to fail")
}

/** A logger that keeps every line, for asserting what was (and was not) logged. */
export function capturingLogger() {
  const lines: string[] = []
  const keep = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`)
  }
  return { lines, logger: { debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") } }
}

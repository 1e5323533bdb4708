/**
 * The running suite's captured output (set up by integration-tests/setup/secrets-guard.ts),
 * for suites that assert what the plugin logged, e.g. the warning for a rejected notification.
 */
import type { OutputCapture } from "./output-capture"

let current: OutputCapture | undefined

export function setSuiteOutput(capture: OutputCapture): void {
  current = capture
}

export function suiteOutput(): OutputCapture {
  if (!current)
    throw new Error(
      "no captured output: integration-tests/setup/secrets-guard.ts is not a setupFilesAfterEnv of this project",
    )
  return current
}

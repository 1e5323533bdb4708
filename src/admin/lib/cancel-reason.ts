/**
 * The reason staff give for cancelling a capture. It becomes the gateway operation's
 * description, which the gateway caps at 255 characters (docs/contract/gateway.md, "Post operations"),
 * so the prompt refuses what the gateway would, before anything is sent.
 */
export const CANCEL_REASON_MAX_LENGTH = 255

/** The problem with the reason, naming the field, or null when it can be sent. */
export function cancelReasonProblem(reason: string): string | null {
  const trimmed = reason.trim()
  if (!trimmed) return "Reason: say why the capture is cancelled (it is recorded at Nexi)."
  if (trimmed.length > CANCEL_REASON_MAX_LENGTH) {
    return `Reason: at most ${CANCEL_REASON_MAX_LENGTH} characters (${trimmed.length} now).`
  }
  return null
}

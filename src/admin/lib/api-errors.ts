/**
 * Turns what an /admin/nexi route answered into an error staff can read. The routes answer
 * errors as Medusa's handler does ({ type, message }, see NexiAdminErrorResponse); the message
 * already says what the gateway refused and why, so it is shown as it is. Anything else (a
 * proxy's HTML page, an empty body) gets a message built from the status.
 */
import type { NexiAdminErrorResponse } from "../../staff/contract"

export class NexiAdminRequestError extends Error {
  constructor(
    readonly status: number,
    readonly type: string | null,
    message: string,
  ) {
    super(message)
    this.name = "NexiAdminRequestError"
  }
}

const STATUS_MESSAGES: Record<number, string> = {
  401: "Your admin session has expired: log in again.",
  403: "Your admin account may not do this.",
  404: "Not found: the Nexi admin routes are missing (is the medusa-payment-nexi plugin registered?).",
}

export function requestErrorOf(status: number, bodyText: string): NexiAdminRequestError {
  const body = parseErrorBody(bodyText)
  if (body?.message) return new NexiAdminRequestError(status, body.type ?? null, body.message)
  const message = STATUS_MESSAGES[status] ?? `The server answered ${status} without an explanation.`
  return new NexiAdminRequestError(status, body?.type ?? null, message)
}

function parseErrorBody(text: string): Partial<NexiAdminErrorResponse> | undefined {
  try {
    const parsed: unknown = JSON.parse(text)
    if (!parsed || typeof parsed !== "object") return undefined
    const { type, message } = parsed as Record<string, unknown>
    return {
      type: typeof type === "string" ? type : undefined,
      message: typeof message === "string" && message.trim() ? message : undefined,
    }
  } catch {
    return undefined
  }
}

/** What a thrown value says, for a toast or an inline error. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return "Something went wrong; try again."
}

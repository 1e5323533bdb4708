/**
 * What a failed attempt without an HTTP answer means for the caller: could the request
 * have reached the service (and been executed), and is it worth trying again.
 */

export interface NetworkFailure {
  /** Short, log-safe description: an error code or "timeout after 300 ms". */
  reason: string
  /** False only when the request certainly never left this machine or never was accepted. */
  mayHaveExecuted: boolean
  /** A transient condition a second attempt can overcome. */
  transient: boolean
}

/** The connection was never established: nothing was sent. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

/** The connection broke while the request or its answer was in flight. */
const BROKEN_IN_FLIGHT = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "ECONNABORTED"])

/** axios refused the request before sending it (a body over maxBodyLength): repeating it changes nothing. */
const REFUSED_BEFORE_SENDING = "ERR_BAD_REQUEST"

/**
 * axios files the answers it stops reading under one code and tells them apart by message
 * only: one over maxContentLength, or one whose connection closed before its end (a broken
 * connection, never a short answer). Each gets the code of what happened on the wire.
 */
function wireCode(code: string | undefined, message: string): string | undefined {
  if (code !== "ERR_BAD_RESPONSE") return code
  return message.startsWith("maxContentLength") ? "ERR_ANSWER_TOO_LARGE" : "ECONNRESET"
}

export function timeoutFailure(timeoutMs: number): NetworkFailure {
  return { reason: `timeout after ${timeoutMs} ms`, mayHaveExecuted: true, transient: true }
}

/** Classifies a transport error by its code (and axios's message, above): the error object itself is never kept. */
export function classifyNetworkError(error: { code?: unknown; message?: unknown }): NetworkFailure {
  const message = typeof error.message === "string" ? error.message : ""
  const code = wireCode(typeof error.code === "string" ? error.code : undefined, message)
  if (code && NOT_CONNECTED.has(code)) return { reason: code, mayHaveExecuted: false, transient: true }
  if (code === REFUSED_BEFORE_SENDING) return { reason: code, mayHaveExecuted: false, transient: false }
  if ((code && BROKEN_IN_FLIGHT.has(code)) || /socket hang up/i.test(message)) {
    return { reason: code ?? "socket hang up", mayHaveExecuted: true, transient: true }
  }
  // Anything else (a malformed answer, an answer over the size limit, ...) is not cured by
  // repeating the request, and we cannot tell whether the service acted on it.
  return { reason: code ?? "network error", mayHaveExecuted: true, transient: false }
}

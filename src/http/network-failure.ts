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
  /**
   * Set when the configured address cannot be reached at all, which waiting does not cure: what
   * is wrong with it, in words a merchant can act on.
   */
  misconfiguration?: string
}

/** The connection was never established: nothing was sent. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

/** Of those, the ones a wrong address causes (a DNS hiccup, EAI_AGAIN, is not one). */
const WRONG_ADDRESS: Record<string, string> = {
  ENOTFOUND: "the host name does not resolve",
  ECONNREFUSED: "nothing accepts connections on that port",
}

/** TLS that never got going: spoken to a plain-http port, or a certificate this machine does not trust. Nothing was sent. */
const TLS_SETUP =
  /^(EPROTO|ERR_SSL_|ERR_TLS_CERT|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_)/

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
  if (code && NOT_CONNECTED.has(code)) {
    // A name that does not resolve stays so for longer than any retry waits.
    return {
      reason: code,
      mayHaveExecuted: false,
      transient: code !== "ENOTFOUND",
      misconfiguration: WRONG_ADDRESS[code],
    }
  }
  if (code && TLS_SETUP.test(code)) {
    const misconfiguration = /^(EPROTO|ERR_SSL_)/.test(code)
      ? "TLS could not be set up: an https URL pointing at a plain-http port, or the reverse"
      : "its TLS certificate is not trusted on this machine"
    return { reason: code, mayHaveExecuted: false, transient: false, misconfiguration }
  }
  if (code === REFUSED_BEFORE_SENDING) return { reason: code, mayHaveExecuted: false, transient: false }
  if ((code && BROKEN_IN_FLIGHT.has(code)) || /socket hang up/i.test(message)) {
    return { reason: code ?? "socket hang up", mayHaveExecuted: true, transient: true }
  }
  // Anything else (a malformed answer, an answer over the size limit, ...) is not cured by
  // repeating the request, and we cannot tell whether the service acted on it.
  return { reason: code ?? "network error", mayHaveExecuted: true, transient: false }
}

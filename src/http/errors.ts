/**
 * The errors both clients throw, so callers branch on a class instead of parsing messages.
 * Every error carries `service` (which API answered) and, where there was one, `status`.
 * Messages never contain secrets: request bodies and headers are not part of them.
 */

export type ServiceName = "gateway" | "apm"

/** How messages name each service, so a merchant knows which configuration to look at. */
export const SERVICE_LABELS: Record<ServiceName, string> = {
  gateway: "Nexi gateway",
  apm: "Nexi alternative-payment service",
}

export interface ErrorDetail {
  /** The gateway's error code (GW0001, PS0029, ...) or the APM fault's explanation text. */
  code: string
  description: string
}

export abstract class NexiError extends Error {
  abstract readonly kind: string
  readonly service: ServiceName
  readonly status?: number
  readonly details: ErrorDetail[]

  constructor(
    service: ServiceName,
    message: string,
    options: { status?: number; details?: ErrorDetail[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.service = service
    this.status = options.status
    this.details = options.details ?? []
  }

  /** True when one of the details carries this gateway code. */
  hasCode(code: string): boolean {
    return this.details.some((detail) => detail.code === code)
  }
}

/** 401: the API key or consumer credentials are wrong. A configuration problem, never retried. */
export class AuthenticationError extends NexiError {
  readonly kind = "authentication"
}

/** 400 (and the APM's 201 "created but rejected"): the request was refused; nothing was executed. */
export class InvalidRequestError extends NexiError {
  readonly kind = "invalid_request"
}

/** 404: the order, operation or transaction does not exist. */
export class NotFoundError extends NexiError {
  readonly kind = "not_found"
}

/**
 * 5xx, refused connection, or a timeout of a read, after the retries: the service could not
 * be reached, and a write was certainly not executed or is safe to retry with the same key.
 */
export class GatewayUnavailableError extends NexiError {
  readonly kind = "unavailable"
  /**
   * Set when the configured address cannot be reached at all (a name that does not resolve, a
   * refused connection, TLS to a plain-http port): a configuration problem, which waiting does
   * not cure. `option` names the provider option that holds the address.
   */
  readonly unreachable?: { host: string; problem: string; option: string }

  constructor(
    service: ServiceName,
    message: string,
    options: {
      status?: number
      details?: ErrorDetail[]
      cause?: unknown
      unreachable?: GatewayUnavailableError["unreachable"]
    } = {},
  ) {
    super(service, message, options)
    this.unreachable = options.unreachable
  }
}

/**
 * A write without an idempotency key timed out or lost its connection: it may have been
 * executed. The caller must find out (read the order) before doing it again.
 */
export class OutcomeUnknownError extends NexiError {
  readonly kind = "outcome_unknown"
}

/**
 * The service answered 2xx with a body that does not match the contract (or a status the
 * contract does not list). `details` hold one entry per problem: code is the field path
 * ("orderStatus.order.amount"), description what is wrong with it.
 */
export class UnexpectedResponseError extends NexiError {
  readonly kind = "unexpected_response"
}

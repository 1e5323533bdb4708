/**
 * Turns an HTTP status the service answered with into the typed error callers branch on.
 * Each client extracts the details from its own error body format; the meaning of a status
 * is the same for both services.
 */
import {
  AuthenticationError,
  type ErrorDetail,
  GatewayUnavailableError,
  InvalidRequestError,
  type NexiError,
  NotFoundError,
  SERVICE_LABELS,
  type ServiceName,
  UnexpectedResponseError,
} from "./errors"

const CREDENTIALS: Record<ServiceName, string> = {
  gateway: "the API key",
  apm: "the consumer key and secret",
}

/** "PS0029 refund greater than captured amount; PS0007 ..." */
export function describeDetails(details: ErrorDetail[]): string {
  return details.map((detail) => (detail.description ? `${detail.code} ${detail.description}` : detail.code)).join("; ")
}

export function errorForStatus(
  service: ServiceName,
  endpoint: string,
  status: number,
  details: ErrorDetail[],
): NexiError {
  const prefix = `${SERVICE_LABELS[service]} ${endpoint} answered ${status}`
  const reasons = details.length > 0 ? `: ${describeDetails(details)}` : ""
  const options = { status, details }
  if (status === 400) return new InvalidRequestError(service, `${prefix} (request refused)${reasons}`, options)
  if (status === 401 || status === 403) {
    return new AuthenticationError(
      service,
      `${prefix} (unauthorized): check ${CREDENTIALS[service]}${reasons}`,
      options,
    )
  }
  if (status === 404) return new NotFoundError(service, `${prefix} (not found)${reasons}`, options)
  if (status >= 500 || status === 429) {
    return new GatewayUnavailableError(service, `${prefix} (service unavailable), try again later${reasons}`, options)
  }
  return new UnexpectedResponseError(service, `${prefix}, a status the contract does not list${reasons}`, options)
}

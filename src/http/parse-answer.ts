/**
 * Validates a 2xx answer against the contract's schema. Unknown extra fields are kept (the
 * schemas are loose); a missing or mistyped field becomes an UnexpectedResponseError that
 * names the field path, so "the gateway changed" is a one-line diagnosis.
 */
import type { z } from "zod"
import { type ErrorDetail, SERVICE_LABELS, type ServiceName, UnexpectedResponseError } from "./errors"

/** At most this many problems are spelled out; a wholly different body would list dozens. */
const MAX_LISTED_ISSUES = 5

/** ["orderStatus", "order", "amount"] -> "orderStatus.order.amount"; ["operations", 0] -> "operations[0]". */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(answer)"
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("")
}

function describeIssue(issue: z.core.$ZodIssue): ErrorDetail {
  // `input` is only inspected for presence, never copied: it may be a secret.
  const missing = issue.code === "invalid_type" && issue.input === undefined
  return {
    code: formatFieldPath(issue.path),
    description: missing ? `is missing (expected ${issue.expected})` : issue.message,
  }
}

export function parseAnswer<S extends z.ZodType>(
  schema: S,
  body: unknown,
  service: ServiceName,
  endpoint: string,
  status: number,
): z.output<S> {
  const prefix = `${SERVICE_LABELS[service]} ${endpoint} answered ${status} with`
  if (typeof body === "string") {
    throw new UnexpectedResponseError(service, `${prefix} a body that is not JSON`, { status })
  }
  const result = schema.safeParse(body, { reportInput: true })
  if (result.success) return result.data
  const details = result.error.issues.map(describeIssue)
  const listed = details.slice(0, MAX_LISTED_ISSUES).map((detail) => `${detail.code}: ${detail.description}`)
  const more = details.length > MAX_LISTED_ISSUES ? ` (and ${details.length - MAX_LISTED_ISSUES} more)` : ""
  throw new UnexpectedResponseError(service, `${prefix} an unexpected body: ${listed.join("; ")}${more}`, {
    status,
    details,
  })
}

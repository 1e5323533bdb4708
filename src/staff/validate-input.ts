/**
 * The one place where routes check their input: parse with a zod schema, or throw a
 * MedusaError INVALID_DATA (answered 400) whose message names every bad field and what is
 * wrong with it: "card.pan: must be 13 to 19 digits; reason: is required". Nothing has been
 * done yet when it throws, so a bad request changes nothing.
 *
 * Messages never repeat the value that was sent: card numbers and CVVs pass through here.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"

type Issue = z.core.$ZodIssue

function fieldName(path: readonly PropertyKey[], key?: string): string {
  const parts = [...path, ...(key === undefined ? [] : [key])].map(String)
  return parts.length ? parts.join(".") : "(request)"
}

/** One line per field; an unknown field is named itself rather than through its parent. */
function describeIssue(issue: Issue): string[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => `${fieldName(issue.path, key)}: is not accepted here`)
  }
  return [`${fieldName(issue.path)}: ${issue.message}`]
}

export function describeIssues(error: z.ZodError): string {
  return error.issues.flatMap(describeIssue).join("; ")
}

/** The parsed value, or a 400 naming the fields. A missing body or query counts as `{}`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {})
  if (parsed.success) return parsed.data
  throw new MedusaError(MedusaError.Types.INVALID_DATA, describeIssues(parsed.error))
}

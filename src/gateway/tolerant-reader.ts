/**
 * Zod building blocks for reading answers tolerantly (issue "Tolerant reader of both APIs"),
 * shared by the gateway's and the APM's schemas. It belongs with the shared HTTP code in
 * spirit; it lives here because both schema files already sit on this layer.
 *
 * Two kinds of enum field, because an unknown value means different things in each:
 * - Informational values (a channel, a payment method type): an unknown one passes as the
 *   string it is. Nothing is decided on them, so failing the whole answer would only hide
 *   the answer from the merchant.
 * - Values money is decided on (an operation type, a transaction or account state): an
 *   unknown one must never pass for a known one. It is set aside under `unrecognized`, so the
 *   typed field is absent (every reader already treats "absent" as "not money yet") and the
 *   raw value is still there to be logged and shown.
 */
import { z } from "zod"
import type { Logger } from "../http/logger"

/** The listed values or any other string, typed as a string: callers show it, never branch on it. */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()])
}

/** Where set-aside values go: field name -> the raw value the service sent. */
export const UnrecognizedSchema = z.record(z.string(), z.string())
export type Unrecognized = z.infer<typeof UnrecognizedSchema>

/**
 * A copy of `input` in which every listed field whose value is a string outside its list is
 * moved to `unrecognized`. Anything else (not an object, a non-string value) is left for the
 * schema to judge: a number where a state belongs is a broken answer, not a new state.
 */
function setAside(input: unknown, fields: Readonly<Record<string, readonly string[]>>): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) }
  const found: Record<string, string> = {}
  for (const [field, known] of Object.entries(fields)) {
    const value = copy[field]
    if (typeof value === "string" && !known.includes(value)) {
      found[field] = value
      delete copy[field]
    }
  }
  if (Object.keys(found).length === 0) return input
  const earlier = copy.unrecognized
  const kept = earlier && typeof earlier === "object" && !Array.isArray(earlier) ? earlier : {}
  return { ...copy, unrecognized: { ...kept, ...found } }
}

/** The member an object schema declares to hold what withUnknownSetAside moved. */
export const unrecognizedField = UnrecognizedSchema.optional()

/**
 * `schema` (an object declaring `unrecognized: unrecognizedField`) with the listed enum fields
 * read safely: see setAside.
 */
export function withUnknownSetAside<S extends z.ZodType>(
  schema: S,
  fields: Readonly<Record<string, readonly string[]>>,
) {
  return z.preprocess((input) => setAside(input, fields), schema)
}

/** A set-aside value is shown at most this long: it comes from outside, and a log line must stay one line. */
const MAX_SHOWN_CHARS = 40

/** Every set-aside value in a parsed answer, as "path.field=VALUE", for one warning line. */
export function listUnrecognized(answer: unknown, path = "", found: string[] = []): string[] {
  // Runs on every answer, nearly always finding nothing: it walks without building paths or arrays until it finds one.
  if (answer === null || typeof answer !== "object") return found
  if (Array.isArray(answer)) {
    for (let index = 0; index < answer.length; index++) listUnrecognized(answer[index], `${path}[${index}]`, found)
    return found
  }
  for (const key in answer) {
    const value = (answer as Record<string, unknown>)[key]
    if (value === null || typeof value !== "object") continue
    if (key === "unrecognized" && !Array.isArray(value)) {
      for (const [field, raw] of Object.entries(value))
        found.push(`${path ? `${path}.` : ""}${field}=${JSON.stringify(String(raw).slice(0, MAX_SHOWN_CHARS))}`)
    } else {
      listUnrecognized(value, path ? `${path}.${key}` : key, found)
    }
  }
  return found
}

/**
 * One warning per answer that held values this plugin does not know: they are read as unknown
 * (never as paid), and someone has to map them; `label` names the service and endpoint.
 */
export function warnUnrecognized(logger: Logger, label: string, answer: unknown): void {
  const values = listUnrecognized(answer)
  if (values.length === 0) return
  logger.warn(
    `nexi: ${label} answered values this plugin does not know (${values.join(", ")}); they are read as unknown, never as paid, until the plugin maps them.`,
  )
}

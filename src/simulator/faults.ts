/**
 * Request fault injection: tests declare "the next capture answers 503" or "hang on refunds"
 * and the server applies it around every API family alike (gateway, APM, hosted page).
 * The shape is a public contract other suites depend on; keep it stable.
 */
import { z } from "zod"

const FaultActionSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("status"),
    status: z.number().int().min(100).max(599),
    body: z.unknown().optional(),
  }),
  /** Never answer: the socket stays open until the client gives up or the server closes. */
  z.strictObject({ type: z.literal("hang") }),
  /** Destroy the socket without an answer. */
  z.strictObject({ type: z.literal("reset") }),
  z.strictObject({ type: z.literal("latency"), ms: z.number().int().min(0).max(600_000) }),
])
export type FaultAction = z.infer<typeof FaultActionSchema>

export const RequestFaultSchema = z.strictObject({
  match: z.strictObject({
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, "must be an HTTP method such as POST")
      .transform((method) => method.toUpperCase())
      .optional(),
    /** Full URL path; "*" matches exactly one segment. */
    path: z.string().startsWith("/", "must be a full URL path starting with /"),
  }),
  /** How many matching requests the fault applies to; omitted means until the faults are cleared. */
  times: z.number().int().positive().optional(),
  /** "before": the request is not executed. "after": it is executed, then the fault replaces the answer. */
  phase: z.enum(["before", "after"]).default("before"),
  action: FaultActionSchema,
})
export type RequestFaultInput = z.input<typeof RequestFaultSchema>
export type RequestFault = z.output<typeof RequestFaultSchema> & { id: string }

function pathMatches(pattern: string, path: string): boolean {
  const wanted = pattern.split("/")
  const actual = path.split("/")
  if (wanted.length !== actual.length) return false
  return wanted.every((segment, index) => (segment === "*" ? actual[index] !== "" : segment === actual[index]))
}

export class RequestFaults {
  private faults: RequestFault[] = []
  private nextId = 1

  add(fault: z.output<typeof RequestFaultSchema>): RequestFault {
    const stored = { ...fault, id: String(this.nextId++) }
    this.faults.push(stored)
    return stored
  }

  /** The first fault matching the request, with one use consumed. */
  take(method: string, path: string): RequestFault | undefined {
    const fault = this.faults.find(
      (candidate) =>
        (candidate.match.method === undefined || candidate.match.method === method) &&
        pathMatches(candidate.match.path, path),
    )
    if (fault?.times !== undefined) {
      fault.times -= 1
      if (fault.times === 0) this.faults = this.faults.filter((candidate) => candidate !== fault)
    }
    return fault
  }

  list(): RequestFault[] {
    return this.faults.map((fault) => ({ ...fault }))
  }

  clear(): void {
    this.faults = []
  }
}

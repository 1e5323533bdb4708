/**
 * The service reports what was wrong as a list of faults ({ explanationText, params }),
 * each naming the field it is about in params.field, so a merchant can fix the request
 * without guessing.
 */
import type { z } from "zod"

/** A type alias, not an interface, so it fits the loose (index-signature) fault schema. */
export type Fault = {
  explanationText: string
  params: Record<string, string>
}

export function fault(explanationText: string, params: Record<string, string | number> = {}): Fault {
  return {
    explanationText,
    params: Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])),
  }
}

/** One fault per zod issue, the dotted path of the field in params.field ("purchaseAmount.vatAmount"). */
export function faultsFromZod(error: z.ZodError): Fault[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join(".") || "body"
    return fault(`${field}: ${issue.message}`, { field })
  })
}

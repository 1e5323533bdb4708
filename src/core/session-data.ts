/**
 * A payment session as the providers keep it: where it stands, and its data, read with a schema
 * instead of a cast. The data is ours (the provider wrote it), but it sits on a record Medusa and
 * the storefront can also write, so a field of the wrong type is an error naming it, never a
 * value silently taken for another. Unknown keys are kept: the storefront's own keys, and fields
 * a newer version added.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"

/**
 * An optional field; a stored null reads as absent (JSON has no undefined). The null becomes
 * undefined in one pass after the parse (sessionDataReader), not in a transform per field:
 * the readers run several times in every provider call, and a transform per field was most
 * of their cost.
 */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish()
}

export const minorAmount = z.string().regex(/^\d+$/, "must be a whole number of minor units")

/**
 * Where a payment stands, in the same five words for cards and mobile payments: the words of
 * Medusa's payment session statuses that a gateway can bring about.
 */
export const PAYMENT_STATUSES = ["pending", "authorized", "captured", "error", "canceled"] as const

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/**
 * Never let Medusa record more than the gateway holds: a payment read as paid that holds less
 * than the session asked is an error, with `reason`.
 */
export function paidInFull<State extends { status: PaymentStatus; reason?: string }>(
  state: State,
  holdsLess: boolean,
  reason: string,
): State {
  const paid = state.status === "authorized" || state.status === "captured"
  return paid && holdsLess ? { ...state, status: "error", reason } : state
}

type WithoutNull<T> = { [K in keyof T]: Exclude<T[K], null> }

export function sessionDataReader<Shape extends z.ZodRawShape>(shape: Shape) {
  const schema = z.looseObject(shape)
  const fields = Object.keys(shape)
  return (data: Record<string, unknown> | undefined | null): WithoutNull<z.output<typeof schema>> => {
    const parsed = schema.safeParse(data ?? {})
    if (parsed.success) {
      const read = parsed.data as Record<string, unknown>
      for (const field of fields) if (read[field] === null) read[field] = undefined
      return read as WithoutNull<z.output<typeof schema>>
    }
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(data)"}: ${issue.message}`)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `The payment session's data is not the Nexi provider's: ${problems.join("; ")}`,
    )
  }
}

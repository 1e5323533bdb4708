/**
 * Reading a provider's session data with a schema instead of a cast. The data is ours (the
 * provider wrote it), but it sits on a record Medusa and the storefront can also write, so a
 * field of the wrong type is an error naming it, never a value silently taken for another.
 * Unknown keys are kept: the storefront's own keys, and fields a newer version added.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"

/** An optional field; a stored null reads as absent (JSON has no undefined). */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined)
}

export const minorAmount = z.string().regex(/^\d+$/, "must be a whole number of minor units")

export function sessionDataReader<Shape extends z.ZodRawShape>(shape: Shape) {
  const schema = z.looseObject(shape)
  return (data: Record<string, unknown> | undefined | null): z.output<typeof schema> => {
    const parsed = schema.safeParse(data ?? {})
    if (parsed.success) return parsed.data
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(data)"}: ${issue.message}`)
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `The payment session's data is not the Nexi provider's: ${problems.join("; ")}`)
  }
}

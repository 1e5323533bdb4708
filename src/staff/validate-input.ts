/**
 * The one place where routes check their input: parse with a zod schema, or throw a
 * MedusaError INVALID_DATA (answered 400) whose message names every bad field and what is
 * wrong with it: "card.pan: must be 13 to 19 digits; reason: is required". Nothing has been
 * done yet when it throws, so a bad request changes nothing.
 *
 * Messages never repeat the value that was sent: card numbers and CVVs pass through here.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import type { OrderTargetField } from "./collection-plan"

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

/** Medusa's ids, named in the message by what they are: `order_...`, `pay_...`. */
function medusaId(prefix: string, what: string) {
  const hint = `must be ${what} (${prefix}_...)`
  return z.string({ error: hint }).regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), hint)
}

export const orderId = medusaId("order", "an order id")
export const cartId = medusaId("cart", "a cart id")

/**
 * The body of a staff collection (MOTO, a payment link): exactly one of `order_id` and
 * `draft_order_id` beside the route's own `fields`, parsed with `field` naming which was given.
 */
export function orderCollectionBody<Shape extends z.ZodRawShape>(fields: Shape) {
  // Typed by hand: TypeScript cannot see these two keys through zod's types of a generic shape.
  const ids = (body: object) => body as { order_id?: string; draft_order_id?: string }
  return z
    .strictObject({ order_id: orderId.optional(), draft_order_id: orderId.optional(), ...fields })
    .refine((body) => Boolean(ids(body).draft_order_id) !== Boolean(ids(body).order_id), {
      path: ["order_id"],
      message: "give exactly one of draft_order_id and order_id",
    })
    .transform((body) => {
      const { draft_order_id, order_id } = ids(body)
      const field: OrderTargetField = draft_order_id ? "draft_order_id" : "order_id"
      return { ...body, field, orderId: (draft_order_id ?? order_id) as string }
    })
}

/** The path of the routes about one order (`/admin/nexi/medusa-orders/:id/...`, `/store/nexi/orders/:id/...`). */
export const OrderParamsSchema = z.object({ id: orderId })
/** The path of the routes about one payment session (`/store/nexi/payment-links/:id`). */
export const PaymentSessionParamsSchema = z.object({ id: medusaId("payses", "a payment session id") })
/** The path of the routes about one Medusa payment (`/admin/nexi/payments/:id/...`). */
export const PaymentParamsSchema = z.object({ id: medusaId("pay", "a payment id") })

/** An amount staff type, in the order's currency: exact decimal text, converted without floats. */
export const decimalAmount = z
  .string({ error: 'must be a decimal number in the order\'s currency, as a string like "12.50"' })
  .regex(/^\d+(\.\d+)?$/, 'must be a positive decimal number like "12.50"')

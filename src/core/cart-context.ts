/**
 * A payment provider is not shown the cart. The plugin's store middleware (src/api/middlewares.ts)
 * reads the cart on the server when a Nexi payment session is created and puts this snapshot in
 * the session's input data under `nexi_cart`; anything a storefront sends under that key is
 * overwritten, so the provider can trust it. The snapshot is not kept in the session data.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { z } from "zod"

const money = z.union([z.number(), z.string()])

const AddressSnapshotSchema = z
  .object({
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    company: z.string().nullish(),
    address_1: z.string().nullish(),
    address_2: z.string().nullish(),
    city: z.string().nullish(),
    postal_code: z.string().nullish(),
    province: z.string().nullish(),
    country_code: z.string().nullish(),
    phone: z.string().nullish(),
  })
  .nullish()

export const CartLineSchema = z.object({
  id: z.string(),
  title: z.string().nullish(),
  variant_sku: z.string().nullish(),
  quantity: z.number().int().positive(),
  /** Unit price as Medusa stores it (tax-inclusive when the price is). */
  unit_price: money,
  is_tax_inclusive: z.boolean().nullish(),
  subtotal: money.nullish(),
  tax_total: money.nullish(),
  total: money.nullish(),
  tax_rate: z.number().nullish(),
})
export type CartLine = z.infer<typeof CartLineSchema>

export const CartContextSchema = z.object({
  cart_id: z.string(),
  email: z.string().nullish(),
  customer_id: z.string().nullish(),
  /** The tag the request's Accept-Language prefers among known languages; none for `*` (i18n/page-language.ts). */
  locale: z.string().nullish(),
  currency_code: z.string().nullish(),
  total: money.nullish(),
  tax_total: money.nullish(),
  shipping_total: money.nullish(),
  shipping_tax_total: money.nullish(),
  billing_address: AddressSnapshotSchema,
  shipping_address: AddressSnapshotSchema,
  items: z.array(CartLineSchema).default([]),
})
export type CartContext = z.infer<typeof CartContextSchema>
export type AddressSnapshot = z.infer<typeof AddressSnapshotSchema>

export const CART_CONTEXT_KEY = "nexi_cart"

/** The snapshot, or undefined when the session was created without the middleware (admin, tests). */
export function readCartContext(data: Record<string, unknown> | undefined): CartContext | undefined {
  const parsed = CartContextSchema.safeParse(data?.[CART_CONTEXT_KEY])
  return parsed.success ? parsed.data : undefined
}

/**
 * The session data without the snapshot: it served initiatePayment only. Medusa stores
 * `{ ...input data, ...returned data }`, so the key is returned as undefined (dropped from
 * the stored JSON) rather than left out.
 */
export function withoutCartContext(data: Record<string, unknown> | undefined): Record<string, unknown> {
  return { ...data, [CART_CONTEXT_KEY]: undefined }
}

/** The cart a payment collection pays for, if it is a cart's (an order's own collection is not). */
export async function cartOfCollection(container: MedusaContainer, collectionId: string): Promise<string | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: collectionId },
  })
  return data[0]?.cart_id ?? undefined
}

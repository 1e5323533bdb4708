/**
 * Which Medusa order a cart became, and the reverse. Medusa 2 keeps no cart_id on the order:
 * completing a cart writes a row of the order<->cart link (`order_cart`), which Query reads
 * like any entity, filtered on its own columns.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

interface OrderCartRow {
  order_id: string
  cart_id: string
}

async function orderCartRows(
  container: MedusaContainer,
  filters: Partial<Record<keyof OrderCartRow, string[]>>,
): Promise<OrderCartRow[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id", "cart_id"], filters })
  return data as OrderCartRow[]
}

/** cart id -> the order it became, for the carts that became one. */
export async function ordersOfCarts(
  container: MedusaContainer,
  cartIds: readonly string[],
): Promise<Map<string, string>> {
  if (!cartIds.length) return new Map()
  const rows = await orderCartRows(container, { cart_id: [...new Set(cartIds)] })
  return new Map(rows.map((row) => [row.cart_id, row.order_id]))
}

/** The cart the order was placed from; null for an order that had none (a draft order). */
export async function cartOfOrder(container: MedusaContainer, orderId: string): Promise<string | null> {
  const [row] = await orderCartRows(container, { order_id: [orderId] })
  return row?.cart_id ?? null
}

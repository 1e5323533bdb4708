/**
 * Runs before Medusa's own handler of POST /store/payment-collections/:id/payment-sessions.
 * For a Nexi provider it reads the cart behind the payment collection on the server and puts
 * a snapshot (addresses, email, lines with their taxes, the language the shopper's
 * Accept-Language prefers among those the gateway knows) into the session input data, where
 * the provider finds it. See src/core/cart-context.ts.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CART_CONTEXT_KEY, type CartContext } from "../../core/cart-context"
import { apmMethodOfProvider, isNexiProviderId } from "../../core/provider-ids"
import { preferredLanguageTag } from "../../i18n/page-language"

/** What the card provider reads: the page's description, 3-D Secure data and the language. */
const CARD_CART_FIELDS = [
  "id",
  "email",
  "customer_id",
  "currency_code",
  "billing_address.*",
  "shipping_address.*",
  "items.id",
  "items.title",
  "items.variant_sku",
  "items.quantity",
  "items.unit_price",
]

/**
 * A mobile payment also sends the cart's lines with their taxes. Medusa computes totals on
 * every read that asks for one, which costs a card session several times the rest of its
 * read, so only a mobile session asks.
 */
const MOBILE_CART_FIELDS = [
  ...CARD_CART_FIELDS,
  "total",
  "tax_total",
  "shipping_total",
  "shipping_tax_total",
  "items.is_tax_inclusive",
  "items.subtotal",
  "items.tax_total",
  "items.total",
  "items.tax_lines.rate",
]

type Body = { provider_id?: unknown; data?: Record<string, unknown> }
type CartRow = Record<string, unknown> & { items?: Array<Record<string, unknown>> }

function toSnapshot(cart: CartRow, locale: string | undefined): CartContext {
  return {
    cart_id: String(cart.id),
    email: (cart.email as string | null) ?? null,
    customer_id: (cart.customer_id as string | null) ?? null,
    locale: locale ?? null,
    currency_code: (cart.currency_code as string | null) ?? null,
    total: cart.total as number | undefined,
    tax_total: cart.tax_total as number | undefined,
    shipping_total: cart.shipping_total as number | undefined,
    shipping_tax_total: cart.shipping_tax_total as number | undefined,
    billing_address: (cart.billing_address as CartContext["billing_address"]) ?? null,
    shipping_address: (cart.shipping_address as CartContext["shipping_address"]) ?? null,
    items: (cart.items ?? []).map((item) => {
      const taxLines = (item.tax_lines as Array<{ rate?: number }> | undefined) ?? []
      return {
        id: String(item.id),
        title: (item.title as string | null) ?? null,
        variant_sku: (item.variant_sku as string | null) ?? null,
        quantity: Number(item.quantity),
        unit_price: item.unit_price as number,
        is_tax_inclusive: (item.is_tax_inclusive as boolean | null) ?? null,
        subtotal: item.subtotal as number | undefined,
        tax_total: item.tax_total as number | undefined,
        total: item.total as number | undefined,
        tax_rate: taxLines.reduce((sum, line) => sum + Number(line.rate ?? 0), 0),
      }
    }),
  }
}

export async function attachCartContext(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as Body
  if (!isNexiProviderId(body.provider_id)) return next()
  try {
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data: links } = await query.graph({
      entity: "cart_payment_collection",
      fields: ["cart_id"],
      filters: { payment_collection_id: req.params.id },
    })
    const cartId = links[0]?.cart_id
    if (cartId) {
      const fields = apmMethodOfProvider(body.provider_id) ? MOBILE_CART_FIELDS : CARD_CART_FIELDS
      const { data: carts } = await query.graph({ entity: "cart", fields, filters: { id: cartId } })
      if (carts[0]) {
        const snapshot = toSnapshot(carts[0] as CartRow, preferredLanguageTag(req.headers["accept-language"]))
        body.data = { ...(body.data ?? {}), [CART_CONTEXT_KEY]: snapshot }
        req.body = body
      }
    }
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * What the plugin does with a storefront's POST /store/payment-collections/:id/payment-sessions
 * for a Nexi provider before Medusa's handler runs (in this order, middlewares.ts):
 * - it checks what the request may carry. The storefront may set only what the plugin documents
 *   in `data` (docs/storefront.md): the shopper's `consumer_id` for a mobile payment;
 *   `save_card` (with `allow_merchant_charges`, the customer's consent to later charges by the
 *   shop) or `payment_method_id` for cards (a saved card, which the provider checks is the
 *   customer's), and `integration: "build"` for the card typed in the checkout's own fields
 *   (XPay Build), and `wallet` (Google Pay or Apple Pay, one the store's options offer); and for
 *   both, `language`, the shopper's. A request the plugin refuses is refused here, before
 *   Medusa's workflow starts, so it changes nothing;
 * - it reads the cart behind the payment collection on the server and puts a snapshot
 *   (addresses, email, lines with their taxes, the language the shopper's Accept-Language
 *   prefers among those the gateway knows) into the session input data, where the provider
 *   finds it (src/core/cart-context.ts).
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { INTEGRATION_KEY } from "../../core/card/card-sessions"
import { MERCHANT_CHARGES_KEY, PAYMENT_METHOD_KEY, SAVE_CARD_KEY } from "../../core/card/saved-card-choice"
import { WALLET_KEY, walletOfSessionData } from "../../core/card/wallet-choice"
import { CART_CONTEXT_KEY, type CartContext, cartOfCollection } from "../../core/cart-context"
import { CONSUMER_ID_KEY, readConsumerId } from "../../core/mobile/apm-session-data"
import { apmMethodOfProvider, isNexiProviderId } from "../../core/provider-ids"
import { requireNexiOptions } from "../../core/store-entries"
import { LANGUAGE_KEY, preferredLanguageTag, requestedLanguage } from "../../i18n/page-language"

/** The keys of `data` a storefront may set, by kind of provider. */
const CARD_KEYS: readonly string[] = [
  SAVE_CARD_KEY,
  MERCHANT_CHARGES_KEY,
  PAYMENT_METHOD_KEY,
  INTEGRATION_KEY,
  WALLET_KEY,
  LANGUAGE_KEY,
]
const MOBILE_KEYS: readonly string[] = [CONSUMER_ID_KEY, LANGUAGE_KEY]

/** The request's body as it arrives: nothing in it is trusted yet. */
type SessionRequestBody = { provider_id?: unknown; data?: unknown }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/**
 * Runs first. Everything the storefront may not set is dropped, before Medusa's workflow stores
 * it on the session: the providers' own keys (`moto`, `order_id`, the cart snapshot `nexi_cart`,
 * ...) mean something to the plugin, and a storefront setting them could steer a payment or
 * block the session's later updates. The cart snapshot is put back by attachCartContext (below),
 * read on the server, or stays absent when the payment collection has no cart.
 */
export function keepDocumentedSessionData(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as SessionRequestBody | undefined
  if (!isPlainObject(body) || !isNexiProviderId(body.provider_id)) return next()
  // Data that is no object at all is left for Medusa's validator to refuse (400 naming `data`).
  const data = body.data
  if (isPlainObject(data)) {
    const keys = apmMethodOfProvider(body.provider_id) ? MOBILE_KEYS : CARD_KEYS
    body.data = Object.fromEntries(keys.filter((key) => Object.hasOwn(data, key)).map((key) => [key, data[key]]))
  }
  next()
}

/**
 * A mobile payment session without the shopper's consumer id is refused. Inside the workflow the
 * refusal would come too late to change nothing: Medusa deletes the collection's other sessions
 * while it creates the new one, and recreates them when the creation fails, so a card session
 * would get a new hosted payment page and the one the shopper may still have open would no longer
 * match it (integration-tests/faults/malformed-inputs.spec.ts).
 */
export function requireConsumerId(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as SessionRequestBody
  if (typeof body.provider_id !== "string" || !apmMethodOfProvider(body.provider_id)) return next()
  try {
    readConsumerId(body.data)
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * A Nexi session (card or mobile) whose `data.language` names no language the gateway knows is
 * refused with a 400 naming the field; without it the page or the app would silently speak
 * another language.
 */
export function refuseUnknownLanguage(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as SessionRequestBody
  if (!isNexiProviderId(body.provider_id)) return next()
  const data = body.data
  if (typeof data !== "object" || data === null || !Object.hasOwn(data, LANGUAGE_KEY)) return next()
  const value = (data as Record<string, unknown>)[LANGUAGE_KEY]
  if (requestedLanguage(value) !== undefined) return next()
  next(
    new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `data.${LANGUAGE_KEY}: ${JSON.stringify(value) ?? String(value)} is no language the payment page or app knows; ` +
        'give a language tag such as "it" or "it-IT", or an ISO 639-2 code such as "ita", or leave it out.',
    ),
  )
}

/**
 * A card session asking for a wallet the store does not offer (its `wallets` option), or for a
 * wallet beside a saved card, is refused with a 400 naming `data.wallet`, for the same reason as
 * a missing consumer id: inside the workflow the refusal would come too late.
 */
export function refuseUnofferedWallet(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as SessionRequestBody
  if (!isNexiProviderId(body.provider_id) || apmMethodOfProvider(body.provider_id) || !isPlainObject(body.data))
    return next()
  try {
    if (Object.hasOwn(body.data, WALLET_KEY))
      walletOfSessionData(body.data, requireNexiOptions(req.scope, body.provider_id).wallets)
    next()
  } catch (error) {
    next(error)
  }
}

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

/** Runs last, on the documented data: the snapshot is the server's reading, never the storefront's. */
export async function attachCartContext(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as SessionRequestBody
  if (!isNexiProviderId(body.provider_id)) return next()
  try {
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const cartId = await cartOfCollection(req.scope, req.params.id)
    if (cartId) {
      const fields = apmMethodOfProvider(body.provider_id) ? MOBILE_CART_FIELDS : CARD_CART_FIELDS
      const { data: carts } = await query.graph({ entity: "cart", fields, filters: { id: cartId } })
      if (carts[0]) {
        const snapshot = toSnapshot(carts[0] as CartRow, preferredLanguageTag(req.headers["accept-language"]))
        body.data = { ...(isPlainObject(body.data) ? body.data : {}), [CART_CONTEXT_KEY]: snapshot }
        req.body = body
      }
    }
    next()
  } catch (error) {
    next(error)
  }
}

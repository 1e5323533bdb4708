/**
 * Runs first before Medusa's handler of POST /store/payment-collections/:id/payment-sessions,
 * for a Nexi provider. The storefront may set only what the plugin documents in `data`
 * (docs/storefront.md): the shopper's `consumer_id` for a mobile payment; `save_card` (with
 * `allow_merchant_charges`, the customer's consent to later charges by the shop) or
 * `payment_method_id` for cards (a saved card, which the provider checks is the customer's);
 * and for both, `language`, the shopper's (checked by refuse-unknown-language.ts).
 * Everything else is dropped here, before Medusa's workflow stores it on the session:
 * the providers' own keys (`moto`, `order_id`, the cart snapshot `nexi_cart`, ...) mean
 * something to the plugin, and a storefront setting them could steer a payment or block the
 * session's later updates. The cart snapshot is put back by attach-cart-context.ts, read on
 * the server, or stays absent when the payment collection has no cart.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MERCHANT_CHARGES_KEY, PAYMENT_METHOD_KEY, SAVE_CARD_KEY } from "../../core/card/card-on-file"
import { CONSUMER_ID_KEY } from "../../core/mobile/apm-session-data"
import { apmMethodOfProvider, isNexiProviderId } from "../../core/provider-ids"
import { LANGUAGE_KEY } from "../../i18n/page-language"

const CARD_KEYS: readonly string[] = [SAVE_CARD_KEY, MERCHANT_CHARGES_KEY, PAYMENT_METHOD_KEY, LANGUAGE_KEY]
const MOBILE_KEYS: readonly string[] = [CONSUMER_ID_KEY, LANGUAGE_KEY]

/** The keys of `data` a storefront may set for this provider. */
export function storefrontKeysOf(providerId: string): readonly string[] {
  return apmMethodOfProvider(providerId) ? MOBILE_KEYS : CARD_KEYS
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** `data` with only the documented keys. */
export function documentedSessionData(providerId: string, data: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {}
  for (const key of storefrontKeysOf(providerId)) {
    if (Object.hasOwn(data, key)) kept[key] = data[key]
  }
  return kept
}

export function keepDocumentedSessionData(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { provider_id?: unknown; data?: unknown } | undefined
  if (!isPlainObject(body) || !isNexiProviderId(body.provider_id)) return next()
  // Data that is no object at all is left for Medusa's validator to refuse (400 naming `data`).
  if (isPlainObject(body.data)) body.data = documentedSessionData(body.provider_id, body.data)
  next()
}

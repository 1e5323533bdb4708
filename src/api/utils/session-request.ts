/**
 * What a storefront's POST /store/payment-collections/:id/payment-sessions may carry for a Nexi
 * provider, checked before Medusa's handler runs. The storefront may set only what the plugin
 * documents in `data` (docs/storefront.md): the shopper's `consumer_id` for a mobile payment;
 * `save_card` (with `allow_merchant_charges`, the customer's consent to later charges by the
 * shop) or `payment_method_id` for cards (a saved card, which the provider checks is the
 * customer's); and for both, `language`, the shopper's. A request the plugin refuses is refused
 * here, before Medusa's workflow starts, so it changes nothing.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { MERCHANT_CHARGES_KEY, PAYMENT_METHOD_KEY, SAVE_CARD_KEY } from "../../core/card/card-on-file"
import { CONSUMER_ID_KEY, readConsumerId } from "../../core/mobile/apm-session-data"
import { apmMethodOfProvider, isNexiProviderId } from "../../core/provider-ids"
import { LANGUAGE_KEY, requestedLanguage } from "../../i18n/page-language"

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

/**
 * Runs first. Everything the storefront may not set is dropped, before Medusa's workflow stores
 * it on the session: the providers' own keys (`moto`, `order_id`, the cart snapshot `nexi_cart`,
 * ...) mean something to the plugin, and a storefront setting them could steer a payment or
 * block the session's later updates. The cart snapshot is put back by attach-cart-context.ts,
 * read on the server, or stays absent when the payment collection has no cart.
 */
export function keepDocumentedSessionData(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { provider_id?: unknown; data?: unknown } | undefined
  if (!isPlainObject(body) || !isNexiProviderId(body.provider_id)) return next()
  // Data that is no object at all is left for Medusa's validator to refuse (400 naming `data`).
  if (isPlainObject(body.data)) body.data = documentedSessionData(body.provider_id, body.data)
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
  const body = (req.body ?? {}) as { provider_id?: unknown; data?: unknown }
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
  const body = (req.body ?? {}) as { provider_id?: unknown; data?: unknown }
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

/**
 * Runs before Medusa's handler of POST /store/payment-collections/:id/payment-sessions. A card
 * session whose `data.language` names no language the gateway knows is refused here, with a
 * 400 naming the field, before Medusa's workflow starts: inside it the refusal would come
 * after the collection's other sessions were replaced (require-consumer-id.ts tells why that
 * changes something). Without this check the page would silently open in another language.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { apmMethodOfProvider } from "../../core/apm-schemes"
import { LANGUAGE_KEY } from "../../core/hosted-order"
import { isNexiProviderId } from "../../core/provider-ids"
import { requestedLanguage } from "../../i18n/page-language"

export function refuseUnknownLanguage(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = (req.body ?? {}) as { provider_id?: unknown; data?: unknown }
  if (!isNexiProviderId(body.provider_id) || apmMethodOfProvider(body.provider_id)) return next()
  const data = body.data
  if (typeof data !== "object" || data === null || !Object.hasOwn(data, LANGUAGE_KEY)) return next()
  const value = (data as Record<string, unknown>)[LANGUAGE_KEY]
  if (requestedLanguage(value) !== undefined) return next()
  next(
    new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `data.${LANGUAGE_KEY}: ${JSON.stringify(value) ?? String(value)} is no language the payment page knows; ` +
        'give a language tag such as "it" or "it-IT", or an ISO 639-2 code such as "ita", or leave it out.',
    ),
  )
}

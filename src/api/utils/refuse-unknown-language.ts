/**
 * Runs before Medusa's handler of POST /store/payment-collections/:id/payment-sessions. A Nexi
 * session (card or mobile) whose `data.language` names no language the gateway knows is refused here, with a
 * 400 naming the field, before Medusa's workflow starts: inside it the refusal would come
 * after the collection's other sessions were replaced (require-consumer-id.ts tells why that
 * changes something). Without this check the page or the app would silently speak another language.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { isNexiProviderId } from "../../core/provider-ids"
import { LANGUAGE_KEY, requestedLanguage } from "../../i18n/page-language"

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

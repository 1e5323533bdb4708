/**
 * The logged-in customer's saved cards (docs/saved-cards.md).
 * GET  -> { saved_cards: [{ id, circuit, masked_pan, expiry, created_at, provider_id }] }
 * POST { currency_code, return_url?, provider_id?, language?, allow_merchant_charges? } -> { saved_card: { id, state: "pending" }, hosted_page }:
 *      save a card without paying; the card is listed once the gateway confirms it. The page
 *      speaks `language`, else the request's Accept-Language, else the `language` option.
 *      `allow_merchant_charges: true` is the customer's consent to the shop charging the card later.
 * Behind customer authentication (middlewares.ts).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { preferredLanguageTag, requestedLanguage } from "../../../../i18n/page-language"
import { listSavedCards, startSavingCard } from "../../../../shopper/saved-cards"
import { parseInput } from "../../../../staff/validate-input"

const SaveSchema = z.strictObject({
  currency_code: z.string({ message: "is required" }).regex(/^[a-zA-Z]{3}$/, "must be an ISO 4217 code such as eur"),
  return_url: z.string().url("must be an absolute URL of the storefront").optional(),
  provider_id: z.string().min(1, "must be a Nexi card provider id such as pp_nexi_nexi").optional(),
  language: z
    .string()
    .refine((value) => requestedLanguage(value) !== undefined, {
      message: 'must be a language tag such as "it" or "it-IT", or an ISO 639-2 code such as "ita"',
    })
    .optional(),
  allow_merchant_charges: z.boolean({ message: "must be true or false" }).optional(),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json({ saved_cards: await listSavedCards(req.scope, req.auth_context.actor_id) })
}

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const body = parseInput(SaveSchema, req.body)
  const started = await startSavingCard(req.scope, req.auth_context.actor_id, {
    providerId: body.provider_id,
    currencyCode: body.currency_code,
    returnUrl: body.return_url,
    // No cart, so no country: the storefront's choice, else the shopper's browser.
    language: body.language ?? preferredLanguageTag(req.headers["accept-language"]),
    allowMerchantCharges: body.allow_merchant_charges,
  })
  res.status(201).json(started)
}

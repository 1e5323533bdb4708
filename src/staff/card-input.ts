/**
 * Card data typed by staff (MOTO payments, card verifications): checked here so an obvious
 * typo is answered at once with the field to fix, before the gateway is called. The data is
 * passed straight to the gateway and never stored, logged or echoed: messages name the field
 * and the rule, never the value, and gateway error texts are masked before anyone sees them.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { toMedusaError } from "../core/medusa-errors"
import type { Card } from "../gateway/schemas"
import { InvalidRequestError, type NexiError } from "../http/errors"
import { passesLuhn } from "../http/luhn"
import { maskPans } from "../http/redact"

const requiredString = (rule: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? "is required" : `must be a string of ${rule}`) })

/** MMYY whose month has not ended yet (UTC; a card is valid through the last day of its month). */
function notExpired(expiryDate: string, now: Date): boolean {
  const month = Number(expiryDate.slice(0, 2))
  const year = 2000 + Number(expiryDate.slice(2, 4))
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1)
}

export function cardInputSchema(now: () => Date = () => new Date()) {
  const shape = {
    pan: requiredString("digits")
      .regex(/^\d{13,19}$/, { message: "must be 13 to 19 digits, without spaces", abort: true })
      .refine(passesLuhn, "is not a valid card number (its check digit is wrong)"),
    expiryDate: requiredString("MMYY")
      .regex(/^(0[1-9]|1[0-2])\d{2}$/, { message: "must be MMYY, for example 1230 for December 2030", abort: true })
      .refine((value) => notExpired(value, now()), "the card has expired"),
    cvv: requiredString("3 or 4 digits")
      .regex(/^\d{3,4}$/, "must be 3 or 4 digits")
      .optional(),
  }
  return z.strictObject(shape, {
    error: (issue) => (issue.input === undefined ? "is required" : "must be an object { pan, expiryDate, cvv? }"),
  })
}

export type CardInput = z.output<ReturnType<typeof cardInputSchema>>

/** The gateway's card object, holding nothing but what staff typed. */
export function gatewayCard(card: CardInput): Card {
  return { pan: card.pan, expiryDate: card.expiryDate, ...(card.cvv ? { cvv: card.cvv } : {}) }
}

/** The gateway's own words about a refused card, with any card number in them masked. */
function maskedGatewayDetails(error: NexiError): string {
  const details = error.details.map((detail) =>
    detail.code ? `${detail.code}: ${detail.description}` : detail.description,
  )
  return maskPans(details.join("; "))
}

/** What staff see when a request carrying card data fails; `what` names it ("MOTO payment"). */
export function cardRequestError(error: unknown, what: string): MedusaError {
  if (error instanceof MedusaError) return error
  if (error instanceof InvalidRequestError) {
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The Nexi gateway refused the ${what}: ${maskedGatewayDetails(error) || "no reason given"}. Nothing was charged.`,
    )
  }
  return toMedusaError(error, `make the ${what}`)
}

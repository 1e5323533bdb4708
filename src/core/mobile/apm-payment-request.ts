/**
 * Builds the initialize body of an APM payment from what Medusa and the cart snapshot know.
 * Pure, so every field can be checked in a unit test without the service.
 */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { ApmMethod, Consumer, InitializeRequest } from "../../apm/schemas"
import { toIso6391Language } from "../../i18n/languages"
import { requestedLanguage } from "../../i18n/page-language"
import type { AddressSnapshot, CartContext } from "../cart-context"
import { SCHEME_WITH_LOCALE_PROPERTIES } from "../provider-ids"
import type { Purchase } from "./purchase-amounts"

export interface PaymentRequestInput {
  method: ApmMethod
  merchantId: string
  sessionId: string
  consumer: Consumer
  purchase: Purchase
  cart?: CartContext
  /** `data.language` as the storefront sent it (docs/storefront.md, "Mobile payments"). */
  requestedLanguage?: unknown
}

function fullName(person: { first_name?: string | null; last_name?: string | null } | null | undefined): string {
  return [person?.first_name, person?.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ")
}

/** consumer.name is required: the address name, then the customer's, then the e-mail address. */
export function consumerName(cart: CartContext | undefined, customer: PaymentCustomerDTO | undefined): string {
  const fromAddress = (address: AddressSnapshot | undefined) => fullName(address) || address?.company?.trim()
  return (
    fromAddress(cart?.billing_address) ||
    fromAddress(cart?.shipping_address) ||
    fullName(customer) ||
    cart?.email?.trim() ||
    customer?.email?.trim() ||
    "Customer"
  )
}

/**
 * The shopper's language as the service takes it ("it"): the one the storefront asked for in
 * `data.language`, else the request's preferred one (the snapshot's locale). A requested value
 * that is no language tag was refused by the store route; from another caller it is passed over.
 */
function languageOf(requested: unknown, cart: CartContext | undefined): string | undefined {
  const tag = requestedLanguage(requested) === undefined ? cart?.locale : String(requested)
  return toIso6391Language(tag)
}

function countryOf(cart: CartContext | undefined): string | undefined {
  const code = (cart?.billing_address?.country_code ?? cart?.shipping_address?.country_code)?.trim().toUpperCase()
  return code && /^[A-Z]{2}$/.test(code) ? code : undefined
}

/** Both members of a property are required, so a value the cart does not know is left out. */
function localeProperties(
  lang: string | undefined,
  cart: CartContext | undefined,
): InitializeRequest["additionalProperties"] {
  const properties = [
    { key: "lang", value: lang },
    { key: "country", value: countryOf(cart) },
  ].filter((property): property is { key: string; value: string } => Boolean(property.value))
  return properties.length ? properties : undefined
}

export function buildPaymentRequest(input: PaymentRequestInput): InitializeRequest {
  const { cart, purchase } = input
  const lang = languageOf(input.requestedLanguage, cart)
  const additionalProperties = input.method === SCHEME_WITH_LOCALE_PROPERTIES ? localeProperties(lang, cart) : undefined
  return {
    merchantId: input.merchantId,
    method: input.method,
    purchaseAmount: purchase.purchaseAmount,
    consumer: input.consumer,
    ecr2Naa: {
      ver: "1.0",
      // The session id on the transaction lets any transaction be traced back to its session.
      reference: input.sessionId,
      ...(lang ? { lang } : {}),
      ...(purchase.order ? { order: purchase.order } : {}),
    },
    ...(additionalProperties ? { additionalProperties } : {}),
  }
}

/**
 * Builds the POST /orders/hpp body from what Medusa and the cart snapshot know. Pure, so
 * every field can be checked in a unit test without a gateway.
 */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { Address, CustomerInfo, HppRequest } from "../../../gateway/schemas"
import { toAlpha3Country } from "../../../i18n/countries"
import { toIso6392Language } from "../../../i18n/languages"
import type { NexiOptions } from "../options"
import type { AddressSnapshot, CartContext } from "../shared/cart-context"
import { cardWebhookProviderOf, DEFAULT_STORE_ENTRY_ID } from "../shared/provider-ids"

/** Medusa's webhook route of the card provider of the store entry `entryId`. */
export function cardWebhookPath(entryId: string = DEFAULT_STORE_ENTRY_ID): string {
  return `/hooks/payment/${cardWebhookProviderOf(entryId)}`
}

/** The webhook path of the default entry (`id: "nexi"`). */
export const CARD_WEBHOOK_PATH = cardWebhookPath()

export interface HostedOrderInput {
  orderId: string
  sessionId: string
  amountMinor: string
  currencyCode: string
  customer?: PaymentCustomerDTO
  cart?: CartContext
  options: NexiOptions
  /** The `id` of the provider's entry in medusa-config; notifications go to its webhook route. */
  entryId?: string
}

/** Fills `{cart_id}` and `{session_id}`; values are URL-encoded so they cannot break the URL. */
export function fillTemplate(template: string, values: { cart_id?: string; session_id: string }): string {
  return template
    .replaceAll("{cart_id}", encodeURIComponent(values.cart_id ?? ""))
    .replaceAll("{session_id}", encodeURIComponent(values.session_id))
}

function compact<T extends Record<string, unknown>>(record: T): T | undefined {
  const entries = Object.entries(record).filter(([, value]) => value !== undefined && value !== null && value !== "")
  return entries.length ? (Object.fromEntries(entries) as T) : undefined
}

function toGatewayAddress(address: AddressSnapshot | Record<string, unknown> | null | undefined): Address | undefined {
  if (!address) return undefined
  const field = (name: string) => {
    const value = (address as Record<string, unknown>)[name]
    return typeof value === "string" && value.trim() ? value.trim() : undefined
  }
  const name = [field("first_name"), field("last_name")].filter(Boolean).join(" ")
  return compact({
    name: name || field("company"),
    street: field("address_1"),
    additionalInfo: field("address_2"),
    city: field("city"),
    postCode: field("postal_code"),
    province: field("province"),
    country: toAlpha3Country(field("country_code")),
  })
}

function customerInfo(input: HostedOrderInput): CustomerInfo | undefined {
  const { customer, cart } = input
  const billing = (cart?.billing_address ?? customer?.billing_address) as AddressSnapshot | undefined
  const shipping = cart?.shipping_address
  const holderName = [customer?.first_name ?? billing?.first_name, customer?.last_name ?? billing?.last_name]
    .map((part) => (typeof part === "string" ? part.trim() : ""))
    .filter(Boolean)
    .join(" ")
  return compact({
    cardHolderName: holderName || undefined,
    cardHolderEmail: cart?.email ?? customer?.email ?? undefined,
    billingAddress: toGatewayAddress(billing),
    shippingAddress: toGatewayAddress(shipping),
    mobilePhone: (customer?.phone ?? billing?.phone ?? shipping?.phone) || undefined,
  })
}

export function buildHostedOrderRequest(input: HostedOrderInput): HppRequest {
  const { options, cart } = input
  const placeholders = { cart_id: cart?.cart_id, session_id: input.sessionId }
  const notificationBase = options.notificationUrl.replace(/\/+$/, "")
  const order = compact({
    orderId: input.orderId,
    amount: input.amountMinor,
    currency: input.currencyCode.toUpperCase(),
    customerId: input.customer?.id ?? cart?.customer_id ?? undefined,
    description: fillTemplate(options.description, placeholders).slice(0, 255),
    // The session id on the gateway order lets any order be traced back to its session.
    customField: input.sessionId,
    customerInfo: customerInfo(input),
  }) as HppRequest["order"]
  return {
    order,
    paymentSession: {
      actionType: "PAY",
      amount: input.amountMinor,
      captureType: options.captureType,
      language: toIso6392Language(cart?.locale, options.language),
      resultUrl: fillTemplate(options.resultUrl, placeholders),
      cancelUrl: fillTemplate(options.cancelUrl, placeholders),
      notificationUrl: `${notificationBase}${cardWebhookPath(input.entryId)}`,
    },
  }
}

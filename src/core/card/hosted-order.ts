/**
 * Builds the POST /orders/hpp body from what Medusa and the cart snapshot know, and the POST
 * /orders/build body (XPay Build), which is the same order and payment session with the
 * address of the page that hosts the card fields. Pure, so every field can be checked in a
 * unit test without a gateway.
 */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { Address, BuildRequest, CustomerInfo, HppRequest, Recurrence, Wallet } from "../../gateway/schemas"
import { toAlpha3Country } from "../../i18n/countries"
import { pageLanguage } from "../../i18n/page-language"
import type { AddressSnapshot, CartContext } from "../cart-context"
import { type NexiOptions, storefrontOrigin } from "../options"
import { cardWebhookProviderOf, DEFAULT_STORE_ENTRY_ID } from "../provider-ids"

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
  /** The account holder's gateway customerId; it replaces Medusa's customer id on the order. */
  customerRef?: string
  /** A saved card to create or pay with (saved-card-choice.ts). */
  recurrence?: Recurrence
  /**
   * The Medusa order a payment link collects for: the page then returns to the link's pages
   * (`paymentLinkResultUrl`, `paymentLinkCancelUrl`), which have no cart.
   */
  paymentLinkOf?: string
  /** Saving a card without paying: a VERIFY order that sends the shopper back to this page either way. */
  verifyReturnUrl?: string
  /** The session data's `language`, the storefront's choice of the page's language (docs/storefront.md). */
  requestedLanguage?: unknown
  /** Google Pay or Apple Pay (wallet-choice.ts): the page shows that wallet's button; a card typed in without it. */
  wallet?: Wallet
}

/** Fills `{cart_id}`, `{order_id}` and `{session_id}`; values are URL-encoded so they cannot break the URL. */
export function fillTemplate(
  template: string,
  values: { cart_id?: string; order_id?: string; session_id: string },
): string {
  return template
    .replaceAll("{cart_id}", encodeURIComponent(values.cart_id ?? ""))
    .replaceAll("{order_id}", encodeURIComponent(values.order_id ?? ""))
    .replaceAll("{session_id}", encodeURIComponent(values.session_id))
}

/** The `description` option's default; a cart without lines gets DESCRIPTION_WITHOUT_ITEMS instead. */
export const DEFAULT_DESCRIPTION = "{items} – {store_name}"
const DESCRIPTION_WITHOUT_ITEMS = "Order at {store_name}"
/** `{store_name}` when the `storeName` option is not set. */
const DEFAULT_STORE_NAME = "our store"
/** The gateway's limit on `order.description`, in UTF-16 code units as it (and zod) counts them. */
const DESCRIPTION_MAX_LENGTH = 255

const DESCRIPTION_PLACEHOLDERS = /\{(items|store_name|cart_id|session_id)\}/g

/** One line of text: control characters and runs of white space become one space. */
function plainText(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return value.replace(/[\u0000-\u001f\u007f\s]+/gu, " ").trim()
}

/** Cuts `text` to at most `max` UTF-16 code units without splitting a character (grapheme cluster). */
export function cutText(text: string, max: number = DESCRIPTION_MAX_LENGTH): string {
  if (text.length <= max) return text
  let cut = ""
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    if (cut.length + segment.length > max) break
    cut += segment
  }
  return cut
}

/** "2 × Moka pot, 1 × Coffee beans", or with the tail as ", +3 more" when all lines do not fit in `budget`. */
export function describeItems(items: CartContext["items"], budget: number): string {
  const parts = items.map(
    (line) => `${line.quantity} × ${plainText(line.title ?? "") || plainText(line.variant_sku ?? "") || "item"}`,
  )
  const listed = (count: number) => {
    const rest = parts.length - count
    return parts.slice(0, count).join(", ") + (rest > 0 ? `${count ? ", " : ""}+${rest} more` : "")
  }
  for (let count = parts.length; count > 0; count--) {
    const text = listed(count)
    if (text.length <= budget) return text
  }
  // Not even the first line fits with the count of the others: it is cut at the end instead.
  return listed(1)
}

/**
 * The hosted page's description: the template with its placeholders filled in as plain text
 * (not URL-encoded, a title is not a URL), cut to 255 characters without splitting one.
 */
export function fillDescription(
  template: string,
  values: { cart_id?: string; session_id: string; store_name?: string; items?: CartContext["items"] },
): string {
  const items = values.items ?? []
  const chosen = template === DEFAULT_DESCRIPTION && items.length === 0 ? DESCRIPTION_WITHOUT_ITEMS : template
  const fill = (itemsText: string) =>
    chosen.replace(DESCRIPTION_PLACEHOLDERS, (_match, name: string) => {
      if (name === "items") return itemsText
      if (name === "store_name") return plainText(values.store_name ?? "") || DEFAULT_STORE_NAME
      if (name === "cart_id") return values.cart_id ?? ""
      return values.session_id
    })
  const placeholdersOfItems = chosen.match(/\{items\}/g)?.length ?? 0
  if (!placeholdersOfItems) return cutText(fill(""))
  const budget = Math.floor((DESCRIPTION_MAX_LENGTH - fill("").length) / placeholdersOfItems)
  return cutText(fill(describeItems(items, Math.max(budget, 0))))
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
  // Medusa's webhook route of the card provider of this store entry.
  const webhookPath = `/hooks/payment/${cardWebhookProviderOf(input.entryId ?? DEFAULT_STORE_ENTRY_ID)}`
  const notificationBase = options.notificationUrl.replace(/\/+$/, "")
  const order = compact({
    orderId: input.orderId,
    amount: input.amountMinor,
    currency: input.currencyCode.toUpperCase(),
    customerId: input.customerRef ?? input.customer?.id ?? cart?.customer_id ?? undefined,
    description: fillDescription(options.description, {
      ...placeholders,
      store_name: options.storeName,
      items: cart?.items,
    }),
    // The session id on the gateway order lets any order be traced back to its session.
    customField: input.sessionId,
    customerInfo: customerInfo(input),
  }) as HppRequest["order"]
  const verify = input.verifyReturnUrl !== undefined
  const link = input.paymentLinkOf !== undefined
  const returns = { ...placeholders, order_id: input.paymentLinkOf }
  return {
    order,
    paymentSession: compact({
      actionType: verify ? "VERIFY" : "PAY",
      amount: input.amountMinor,
      recurrence: input.recurrence,
      // The capture type is a payment's; a verification moves no money.
      captureType: verify ? undefined : options.captureType,
      language: pageLanguage(
        {
          requested: input.requestedLanguage,
          locale: cart?.locale,
          shippingCountry: cart?.shipping_address?.country_code,
          billingCountry: cart?.billing_address?.country_code,
        },
        options.language,
      ),
      resultUrl:
        input.verifyReturnUrl ?? fillTemplate(link ? options.paymentLinkResultUrl : options.resultUrl, returns),
      cancelUrl:
        input.verifyReturnUrl ?? fillTemplate(link ? options.paymentLinkCancelUrl : options.cancelUrl, returns),
      notificationUrl: `${notificationBase}${webhookPath}`,
      // Left out for a card typed in: CARDS is the gateway's default.
      paymentService: input.wallet,
    }) as HppRequest["paymentSession"],
  }
}

/**
 * The Build variant: the fields are shown in the storefront's checkout, whose origin is that of
 * `resultUrl` (where a 3-D Secure challenge sends the shopper back); the gateway posts the
 * fields' events to that origin only.
 */
export function buildBuildRequest(input: HostedOrderInput): BuildRequest {
  return { merchantUrl: storefrontOrigin(input.options.resultUrl), ...buildHostedOrderRequest(input) }
}

/**
 * Seeds what a checkout needs in a fresh test database, through Medusa's own workflows, and
 * drives the store API the way a storefront does.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} from "@medusajs/medusa/core-flows"

export const NEXI_CARD_PROVIDER = "pp_nexi_nexi"

export interface StoreBasics {
  publishableKey: string
  salesChannelId: string
}

export function storeHeaders(publishableKey: string) {
  return { headers: { "x-publishable-api-key": publishableKey } }
}

export async function seedStoreBasics(container: MedusaContainer): Promise<StoreBasics> {
  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Webshop" }] },
  })
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "test" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({
    input: { id: keys[0].id, add: [channels[0].id] },
  })
  return { publishableKey: keys[0].token, salesChannelId: channels[0].id }
}

/** Every provider this package registers for the region unless the test says otherwise. */
export async function createRegion(
  container: MedusaContainer,
  input: { name: string; currency_code: string; countries: string[]; payment_providers?: string[] },
) {
  const paymentModule = container.resolve("payment")
  const registered = await paymentModule.listPaymentProviders({})
  const nexiProviders = registered
    .map((provider: { id: string }) => provider.id)
    .filter((id: string) => id.startsWith("pp_nexi"))
  const { result } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: input.name,
          currency_code: input.currency_code,
          countries: input.countries,
          payment_providers: input.payment_providers ?? nexiProviders,
          automatic_taxes: true,
        },
      ],
    },
  })
  return result[0]
}

export interface EuroShop extends StoreBasics {
  regionId: string
  variantId: string
}

/** The shop most suites check out in: an Italian EUR region with every Nexi provider, one product at `price`. */
export async function seedEuroShop(container: MedusaContainer, price: number | string = 19.99): Promise<EuroShop> {
  const basics = await seedStoreBasics(container)
  const region = await createRegion(container, { name: "Italy", currency_code: "eur", countries: ["it"] })
  const { variantId } = await createProduct(container, basics.salesChannelId, [{ currency_code: "eur", amount: price }])
  return { ...basics, regionId: region.id, variantId }
}

/** A country's VAT through Medusa's system tax provider, so carts there carry tax lines. */
export async function createTaxRegion(container: MedusaContainer, countryCode: string, ratePercent: number) {
  await createTaxRegionsWorkflow(container).run({
    input: [
      {
        country_code: countryCode,
        provider_id: "tp_system",
        default_tax_rate: { rate: ratePercent, code: "VAT", name: "VAT" },
      },
    ],
  })
}

/** A product with one variant priced in the given currencies (major units, as Medusa stores them). */
export async function createProduct(
  container: MedusaContainer,
  salesChannelId: string,
  prices: Array<{ currency_code: string; amount: number | string }>,
  title = "Espresso cup",
) {
  const { result } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title,
          status: "published",
          options: [{ title: "Size", values: ["One"] }],
          variants: [
            {
              title: "One",
              sku: `${title.replace(/\W+/g, "-").toLowerCase()}-${Date.now()}`,
              options: { Size: "One" },
              manage_inventory: false,
              prices: prices.map((price) => ({ currency_code: price.currency_code, amount: price.amount as number })),
            },
          ],
          sales_channels: [{ id: salesChannelId }],
        },
      ],
    },
  })
  return { product: result[0], variantId: result[0].variants[0].id }
}

export const ADDRESS = {
  first_name: "Giulia",
  last_name: "Rossi",
  address_1: "Via Roma 1",
  city: "Milano",
  postal_code: "20121",
  province: "MI",
  country_code: "it",
  phone: "+39021234567",
}

type Api = {
  get(url: string, config?: unknown): Promise<{ data: any; status: number }>
  post(url: string, body?: unknown, config?: unknown): Promise<{ data: any; status: number }>
}

/** A cart with one line, addresses and an email, as a storefront builds it before payment. */
export async function createCart(
  api: Api,
  publishableKey: string,
  // A distinct email per cart lets carts be created concurrently: Medusa creates a guest customer per new email.
  input: { regionId: string; variantId: string; quantity?: number; countryCode?: string; email?: string },
) {
  const address = { ...ADDRESS, country_code: input.countryCode ?? ADDRESS.country_code }
  const { data } = await api.post(
    "/store/carts",
    {
      region_id: input.regionId,
      email: input.email ?? "giulia@example.com",
      items: [{ variant_id: input.variantId, quantity: input.quantity ?? 1 }],
      shipping_address: address,
      billing_address: address,
    },
    storeHeaders(publishableKey),
  )
  return data.cart
}

/** Creates the payment collection and a session of the provider; returns the session. */
export async function startPaymentSession(
  api: Api,
  publishableKey: string,
  cartId: string,
  providerId: string,
  data?: Record<string, unknown>,
) {
  const { data: collection } = await api.post(
    "/store/payment-collections",
    { cart_id: cartId },
    storeHeaders(publishableKey),
  )
  const { data: withSession } = await api.post(
    `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
    { provider_id: providerId, ...(data ? { data } : {}) },
    storeHeaders(publishableKey),
  )
  const sessions = withSession.payment_collection.payment_sessions as Array<{
    id: string
    provider_id: string
    data: any
    status: string
  }>
  return {
    collectionId: collection.payment_collection.id as string,
    session: sessions.find((session) => session.provider_id === providerId)!,
  }
}

export async function completeCart(api: Api, publishableKey: string, cartId: string) {
  const { data } = await api.post(`/store/carts/${cartId}/complete`, {}, storeHeaders(publishableKey))
  return data as { type: "order"; order: any } | { type: "cart"; cart: any; error: any }
}

/** Polls until `read` returns a value, for things that happen after Medusa's webhook delay. */
export async function eventually<T>(
  read: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 500 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

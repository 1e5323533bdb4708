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
  const nexiProviders = registered.map((provider: { id: string }) => provider.id).filter((id: string) => id.startsWith("pp_nexi"))
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

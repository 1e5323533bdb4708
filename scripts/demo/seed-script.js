/**
 * Seeds the demo store inside Medusa (`medusa exec scripts/demo/seed-script.js <result file>
 * <admin email> [<shopper email>]`), through Medusa's own workflows, as
 * integration-tests/support/store.ts does. The demo shopper's password comes in the
 * environment (DEMO_SHOPPER_PASSWORD), not on the command line, which `ps` shows.
 *
 * Every step first looks for what it would create (by name, title, handle or country), so a
 * second run, or a run after one that stopped half-way, reuses the store and creates only what
 * is missing. The result file says what the storefront needs: the publishable key, the
 * regions, the products, and whether the admin user exists yet.
 */
const fs = require("node:fs")
const { ContainerRegistrationKeys, Modules } = require("@medusajs/framework/utils")
const {
  createApiKeysWorkflow,
  createCustomerAccountWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  updateStoresWorkflow,
} = require("@medusajs/medusa/core-flows")

const STORE_NAME = "Nexi demo shop"
const SALES_CHANNEL = "Nexi demo webshop"
const API_KEY_TITLE = "Nexi demo storefront"

/** Prices in major units, as Medusa stores them; JPY has no minor unit. */
const REGIONS = [
  { name: "Europe (EUR)", currency_code: "eur", countries: ["it", "de", "fr", "es", "nl"] },
  { name: "Japan (JPY)", currency_code: "jpy", countries: ["jp"] },
]

/** The registered shopper of the demo: the name matches the checkout's sample EUR address. */
const SHOPPER_PROFILE = { first_name: "Giulia", last_name: "Rossi", phone: "+39021234567" }

const VAT_PERCENT = { it: 22, de: 19, fr: 20, es: 21, nl: 21, jp: 10 }

const PRODUCTS = [
  {
    handle: "espresso-cups",
    title: "Espresso cups (set of 2)",
    description: "Thick porcelain cups that keep an espresso hot.",
    prices: { eur: 24.5, jpy: 3800 },
  },
  {
    handle: "moka-pot",
    title: "Moka pot, 6 cups",
    description: "Aluminium stovetop coffee maker.",
    prices: { eur: 39.9, jpy: 6200 },
  },
  {
    handle: "coffee-beans",
    title: "Coffee beans, 1 kg",
    description: "Medium roast, for espresso and moka.",
    prices: { eur: 19.99, jpy: 3100 },
  },
]

async function ensureSalesChannel(container) {
  const salesChannels = container.resolve(Modules.SALES_CHANNEL)
  const [existing] = await salesChannels.listSalesChannels({ name: SALES_CHANNEL })
  if (existing) return existing
  const { result } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: SALES_CHANNEL, description: "The demo storefront's products" }] },
  })
  return result[0]
}

async function ensurePublishableKey(container, salesChannelId) {
  const apiKeys = container.resolve(Modules.API_KEY)
  let [key] = await apiKeys.listApiKeys({ title: API_KEY_TITLE, type: "publishable", revoked_at: null })
  if (!key) {
    const { result } = await createApiKeysWorkflow(container).run({
      input: { api_keys: [{ title: API_KEY_TITLE, type: "publishable", created_by: "nexi-demo" }] },
    })
    key = result[0]
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "api_key",
    fields: ["id", "sales_channels.id"],
    filters: { id: key.id },
  })
  const linked = (data[0]?.sales_channels ?? []).some((channel) => channel?.id === salesChannelId)
  if (!linked) await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [salesChannelId] } })
  return key
}

/** The store's name and currencies (for the admin's price editors; EUR the default), set once. */
async function ensureStoreSettings(container) {
  const stores = container.resolve(Modules.STORE)
  const [store] = await stores.listStores({}, { relations: ["supported_currencies"] })
  if (!store) return
  const codes = (store.supported_currencies ?? []).map((currency) => currency.currency_code)
  if (REGIONS.every((region) => codes.includes(region.currency_code))) return
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: STORE_NAME,
        supported_currencies: REGIONS.map((region, index) => ({
          currency_code: region.currency_code,
          is_default: index === 0,
        })),
      },
    },
  })
}

async function ensureRegions(container) {
  const regions = container.resolve(Modules.REGION)
  const payment = container.resolve(Modules.PAYMENT)
  const nexiProviders = (await payment.listPaymentProviders({}))
    .map((provider) => provider.id)
    .filter((id) => id.startsWith("pp_nexi"))
  const result = []
  for (const wanted of REGIONS) {
    let [region] = await regions.listRegions({ name: wanted.name }, { relations: ["countries"] })
    if (!region) {
      const { result: created } = await createRegionsWorkflow(container).run({
        input: { regions: [{ ...wanted, payment_providers: nexiProviders, automatic_taxes: true }] },
      })
      region = created[0]
    }
    result.push({ id: region.id, name: region.name, currency_code: region.currency_code, countries: wanted.countries })
  }
  return result
}

async function ensureTaxRegions(container) {
  const tax = container.resolve(Modules.TAX)
  const existing = new Set((await tax.listTaxRegions({ parent_id: null })).map((region) => region.country_code))
  const missing = Object.entries(VAT_PERCENT).filter(([country]) => !existing.has(country))
  if (!missing.length) return
  await createTaxRegionsWorkflow(container).run({
    input: missing.map(([country_code, rate]) => ({
      country_code,
      provider_id: "tp_system",
      default_tax_rate: { rate, code: "VAT", name: "VAT" },
    })),
  })
}

async function ensureProducts(container, salesChannelId) {
  const products = container.resolve(Modules.PRODUCT)
  const existing = await products.listProducts({ handle: PRODUCTS.map((product) => product.handle) })
  const missing = PRODUCTS.filter((product) => !existing.some((found) => found.handle === product.handle))
  if (missing.length) {
    await createProductsWorkflow(container).run({
      input: {
        products: missing.map((product) => ({
          handle: product.handle,
          title: product.title,
          description: product.description,
          status: "published",
          options: [{ title: "Edition", values: ["Standard"] }],
          variants: [
            {
              title: "Standard",
              sku: `demo-${product.handle}`,
              options: { Edition: "Standard" },
              manage_inventory: false,
              prices: Object.entries(product.prices).map(([currency_code, amount]) => ({ currency_code, amount })),
            },
          ],
          sales_channels: [{ id: salesChannelId }],
        })),
      },
    })
  }
  const all = await products.listProducts({ handle: PRODUCTS.map((product) => product.handle) })
  return all.map((product) => ({ id: product.id, handle: product.handle, title: product.title }))
}

async function adminUserExists(container, email) {
  const users = container.resolve(Modules.USER)
  return (await users.listUsers({ email })).length > 0
}

/**
 * The demo shopper, registered as a storefront registers a customer: an emailpass identity
 * (POST /auth/customer/emailpass/register), then the customer account on it (POST
 * /store/customers, createCustomerAccountWorkflow). Found again by its e-mail; an identity left
 * without its customer by a run that stopped half-way gets the customer now.
 */
async function ensureShopper(container, email, password) {
  const auth = container.resolve(Modules.AUTH)
  const customers = container.resolve(Modules.CUSTOMER)
  const [providerIdentity] = await auth.listProviderIdentities({ entity_id: email, provider: "emailpass" })
  let authIdentityId = providerIdentity?.auth_identity_id
  if (authIdentityId) {
    const [identity] = await auth.listAuthIdentities({ id: authIdentityId })
    const customerId = identity?.app_metadata?.customer_id
    if (customerId && (await customers.listCustomers({ id: customerId })).length) return
  } else {
    const registered = await auth.register("emailpass", { body: { email, password } })
    if (!registered.success) throw new Error(`could not register the demo shopper ${email}: ${registered.error}`)
    authIdentityId = registered.authIdentity.id
  }
  await createCustomerAccountWorkflow(container).run({
    input: { authIdentityId, customerData: { email, ...SHOPPER_PROFILE } },
  })
}

async function seedDemoStore({ container, args }) {
  const [resultFile, adminEmail, shopperEmail] = args
  if (!resultFile || !adminEmail)
    throw new Error("usage: medusa exec scripts/demo/seed-script.js <result file> <admin email> [<shopper email>]")
  const shopperPassword = process.env.DEMO_SHOPPER_PASSWORD
  if (shopperEmail && !shopperPassword)
    throw new Error("DEMO_SHOPPER_PASSWORD: the demo shopper's password is required with a shopper e-mail")
  const salesChannel = await ensureSalesChannel(container)
  const key = await ensurePublishableKey(container, salesChannel.id)
  await ensureStoreSettings(container)
  const regions = await ensureRegions(container)
  await ensureTaxRegions(container)
  const products = await ensureProducts(container, salesChannel.id)
  if (shopperEmail) await ensureShopper(container, shopperEmail, shopperPassword)
  const result = {
    publishableKey: key.token,
    salesChannelId: salesChannel.id,
    regions,
    products,
    adminUserExists: await adminUserExists(container, adminEmail),
  }
  fs.writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`)
}

module.exports = { default: seedDemoStore }

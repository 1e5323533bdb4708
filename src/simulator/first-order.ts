#!/usr/bin/env node
/**
 * nexi-first-order: a store's first paid order, made against a running store and the simulator
 * with nothing but Medusa's own HTTP API and the simulator's control API, as a storefront and
 * staff would: the setup a new store lacks (a EUR region with the card provider, a sales channel
 * with a publishable key, shipping, a product), then a guest cart paid with a test card, the
 * order captured and refunded in two parts. Everything it creates is named "Nexi first order"
 * and found again by that name, so a second run reuses it and makes one more order.
 */
import { parseArgs } from "node:util"
import BigNumber from "bignumber.js"
import { CONTROL_BASE_PATH } from "./options"

const NAME = "Nexi first order"
const HANDLE = "nexi-first-order-mug"
const CARD_PROVIDER = "pp_nexi_nexi"
const CURRENCY = "eur"
/** The simulator approves this card without a 3-D Secure challenge (docs/simulator.md). */
const APPROVED_CARD = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const FIRST_REFUND = "5"

const USAGE = `Usage: nexi-first-order --email EMAIL --password PASSWORD [options]

Makes a paid order in a running store on the gateway simulator (started with --control), then
captures it and refunds it in two parts. What it sets up is named "${NAME}" and reused next time.

Options:
  --email EMAIL      An admin user of the store (npx medusa user -e EMAIL -p PASSWORD)
  --password PASS    Its password
  --backend URL      The store (default: MEDUSA_BACKEND_URL, else http://localhost:9000)
  --simulator URL    The simulator (default: NEXI_SIMULATOR_URL, else http://127.0.0.1:4010)
  -h, --help         This text`

// biome-ignore lint/suspicious/noExplicitAny: Medusa's answers, each read for the few members the next call needs
type Json = Record<string, any>

interface Settings {
  backend: string
  simulator: string
  email: string
  password: string
}

function settingsOf(argv: string[], env: NodeJS.ProcessEnv): Settings | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      backend: { type: "string" },
      simulator: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  })
  if (values.help) return "help"
  if (!values.email || !values.password) throw new Error("--email and --password of an admin user are required")
  const url = (value: string, flag: string) => {
    if (!URL.canParse(value)) throw new Error(`${flag} must be an absolute URL (got "${value}")`)
    return value.replace(/\/+$/, "")
  }
  return {
    email: values.email,
    password: values.password,
    backend: url(values.backend ?? env.MEDUSA_BACKEND_URL ?? "http://localhost:9000", "--backend"),
    simulator: url(values.simulator ?? env.NEXI_SIMULATOR_URL ?? "http://127.0.0.1:4010", "--simulator"),
  }
}

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Json> {
  const answer = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: Error) => {
    throw new Error(
      `${method} ${url}: ${error.message} (${(error.cause as Error | undefined)?.message ?? "no answer"})`,
    )
  })
  const text = await answer.text()
  if (!answer.ok) throw new Error(`${method} ${url} answered ${answer.status}: ${text.slice(0, 500)}`)
  return text === "" ? {} : (JSON.parse(text) as Json)
}

function line(label: string, text: string): void {
  process.stdout.write(`  ${label.padEnd(12)} ${text}\n`)
}

async function firstOrder(settings: Settings): Promise<void> {
  const { backend, simulator } = settings
  process.stdout.write(`Nexi first order on ${backend}, paying on the simulator at ${simulator}\n`)
  const { token } = await call(
    `${backend}/auth/user/emailpass`,
    "POST",
    {},
    {
      email: settings.email,
      password: settings.password,
    },
  )
  const admin = (route: string, body?: unknown) =>
    call(`${backend}${route}`, body === undefined ? "GET" : "POST", { authorization: `Bearer ${token}` }, body)
  const named = encodeURIComponent(NAME)

  // A EUR region with the card provider: the store's own when it has one (only the provider is added).
  const { regions } = await admin("/admin/regions?limit=100&fields=id,name,currency_code,*countries,*payment_providers")
  let region = (regions as Json[]).find((candidate) => candidate.currency_code === CURRENCY)
  if (!region) {
    region = (
      await admin("/admin/regions?fields=*countries", {
        name: "Italy",
        currency_code: CURRENCY,
        countries: ["it"],
        payment_providers: [CARD_PROVIDER],
      })
    ).region as Json
  } else if (!(region.payment_providers as Json[]).some((provider) => provider.id === CARD_PROVIDER)) {
    const providers = [...(region.payment_providers as Json[]).map((provider) => provider.id), CARD_PROVIDER]
    await admin(`/admin/regions/${region.id}`, { payment_providers: providers })
  }
  const country = (region.countries as Json[])[0]?.iso_2 as string | undefined
  if (!country) throw new Error(`region ${region.name} (${region.id}) has no country: add one in the admin`)
  line("region", `${region.name} (${region.id}), ${CURRENCY.toUpperCase()}, ${CARD_PROVIDER} enabled`)

  const channel =
    (await admin(`/admin/sales-channels?name=${named}`)).sales_channels[0] ??
    (await admin("/admin/sales-channels", { name: NAME })).sales_channel
  let key = ((await admin(`/admin/api-keys?q=${named}&type=publishable`)).api_keys as Json[]).find(
    (candidate) => !candidate.revoked_at,
  )
  if (!key) {
    key = (await admin("/admin/api-keys", { title: NAME, type: "publishable" })).api_key as Json
    await admin(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] })
  }
  line("storefront", `publishable key ${key.token} (sales channel ${NAME})`)

  const profiles = (await admin("/admin/shipping-profiles?type=default")).shipping_profiles as Json[]
  const profile =
    profiles[0] ??
    (await admin("/admin/shipping-profiles", { name: "Default Shipping Profile", type: "default" })).shipping_profile
  if (!(await admin(`/admin/stock-locations?name=${named}`)).stock_locations[0]) {
    await shipFrom(admin, { channelId: channel.id, profileId: profile.id, country })
  }
  line("shipping", `${NAME} shipping, 4.90 ${CURRENCY.toUpperCase()} to ${country.toUpperCase()}`)

  const product =
    (await admin(`/admin/products?handle=${HANDLE}&fields=id,title,*variants`)).products[0] ??
    (
      await admin("/admin/products", {
        title: `${NAME} mug`,
        handle: HANDLE,
        status: "published",
        shipping_profile_id: profile.id,
        options: [{ title: "Size", values: ["One"] }],
        variants: [
          {
            title: "One",
            options: { Size: "One" },
            manage_inventory: false,
            prices: [{ currency_code: CURRENCY, amount: 19.99 }],
          },
        ],
        sales_channels: [{ id: channel.id }],
      })
    ).product
  line("product", `${product.title} (${product.id})`)

  const store = (route: string, body?: unknown) =>
    call(`${backend}${route}`, body === undefined ? "GET" : "POST", { "x-publishable-api-key": key.token }, body)
  const address = {
    first_name: "Giulia",
    last_name: "Rossi",
    address_1: "Via Roma 1",
    city: "Milano",
    postal_code: "20121",
    country_code: country,
  }
  const { cart } = await store("/store/carts", {
    region_id: region.id,
    email: "giulia.rossi@example.com",
    items: [{ variant_id: product.variants[0].id, quantity: 1 }],
    shipping_address: address,
    billing_address: address,
  })
  const options = (await store(`/store/shipping-options?cart_id=${cart.id}`)).shipping_options as Json[]
  const shipping = options.find((option) => option.name === `${NAME} shipping`) ?? options[0]
  if (!shipping) throw new Error(`the store offers cart ${cart.id} no shipping option`)
  await store(`/store/carts/${cart.id}/shipping-methods`, { option_id: shipping.id })
  const { payment_collection: collection } = await store("/store/payment-collections", { cart_id: cart.id })
  const { payment_collection: withSession } = await store(
    `/store/payment-collections/${collection.id}/payment-sessions`,
    { provider_id: CARD_PROVIDER },
  )
  const session = (withSession.payment_sessions as Json[])[0]
  line("cart", `${cart.id}, hosted payment page ${session.data.hosted_page}`)

  // The shopper's part, played through the simulator's control API instead of a browser.
  const paid = await call(
    `${simulator}${CONTROL_BASE_PATH}/hpp/${session.data.order_id}/pay`,
    "POST",
    {},
    APPROVED_CARD,
  )
  line("paid", `VISA •••• ${APPROVED_CARD.pan.slice(-4)} on the hosted page: ${paid.result}`)
  const completed = await store(`/store/carts/${cart.id}/complete`, {})
  if (completed.type !== "order")
    throw new Error(`cart ${cart.id} was not completed: ${JSON.stringify(completed.error)}`)
  const orderId = completed.order.id as string
  const { order } = await admin(`/admin/orders/${orderId}?fields=id,display_id,*payment_collections.payments`)
  const payment = (order.payment_collections as Json[])[0].payments[0] as Json
  const amount = `${new BigNumber(payment.amount).toFixed(2)} ${CURRENCY.toUpperCase()}`
  line("order", `#${order.display_id} (${orderId}), ${amount} authorized`)

  await admin(`/admin/payments/${payment.id}/capture`, {})
  line("captured", amount)
  const rest = new BigNumber(payment.amount).minus(FIRST_REFUND)
  await admin(`/admin/payments/${payment.id}/refund`, { amount: Number(FIRST_REFUND) })
  await admin(`/admin/payments/${payment.id}/refund`, { amount: rest.toNumber() })
  const { order: refunded } = await admin(`/admin/orders/${orderId}?fields=id,payment_status`)
  line(
    "refunded",
    `${new BigNumber(FIRST_REFUND).toFixed(2)}, then ${rest.toFixed(2)}: the order is ${refunded.payment_status}`,
  )
  process.stdout.write(`Order ${orderId}: ${backend}/app/orders/${orderId}\n`)
}

/** A stock location shipping to `country` from the sales channel, with one flat-rate option. */
async function shipFrom(
  admin: (route: string, body?: unknown) => Promise<Json>,
  input: { channelId: string; profileId: string; country: string },
): Promise<void> {
  const { stock_location: location } = await admin("/admin/stock-locations", { name: NAME })
  await admin(`/admin/stock-locations/${location.id}/sales-channels`, { add: [input.channelId] })
  await admin(`/admin/stock-locations/${location.id}/fulfillment-providers`, { add: ["manual_manual"] })
  const { stock_location: withSet } = await admin(
    `/admin/stock-locations/${location.id}/fulfillment-sets?fields=*fulfillment_sets`,
    { name: `${NAME} shipping`, type: "shipping" },
  )
  const { fulfillment_set: set } = await admin(
    `/admin/fulfillment-sets/${withSet.fulfillment_sets[0].id}/service-zones?fields=*service_zones`,
    { name: NAME, geo_zones: [{ type: "country", country_code: input.country }] },
  )
  await admin("/admin/shipping-options", {
    name: `${NAME} shipping`,
    service_zone_id: set.service_zones[0].id,
    shipping_profile_id: input.profileId,
    provider_id: "manual_manual",
    price_type: "flat",
    type: { label: "Standard", description: "Ships in 2-3 days", code: "standard" },
    prices: [{ currency_code: CURRENCY, amount: 4.9 }],
    rules: [
      { attribute: "enabled_in_store", operator: "eq", value: "true" },
      { attribute: "is_return", operator: "eq", value: "false" },
    ],
  })
}

async function main(): Promise<void> {
  let settings: ReturnType<typeof settingsOf>
  try {
    settings = settingsOf(process.argv.slice(2), process.env)
  } catch (error) {
    process.stderr.write(`nexi-first-order: ${(error as Error).message}\n${USAGE}\n`)
    process.exitCode = 2
    return
  }
  if (settings === "help") {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  await firstOrder(settings)
}

main().catch((error: unknown) => {
  process.stderr.write(`nexi-first-order: ${(error as Error).message}\n`)
  process.exitCode = 1
})

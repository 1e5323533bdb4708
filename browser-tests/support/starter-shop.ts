/**
 * The store behind the starter-shaped storefront's browser tests: the demo's store (database,
 * simulator, Medusa with the plugin, the seeded regions, products and shopper) without the
 * demo's own storefront, plus what a starter's checkout needs that the demo does without:
 * a stock location serving Italy with a flat-rate shipping option, and the products in its
 * shipping profile. Then the starter-shaped storefront, built once (cached) and started on the
 * port the store's resultUrl and cancelUrl point at.
 */
import type { RunningDemo } from "../../scripts/demo/start-demo"
import { type DemoForTests, demoForTests } from "./demo-shop"
import { buildStarterStorefront, startStarterStorefront } from "./starter-storefront-server"

export const SHIPPING_OPTION = "Standard shipping"
/** 4.90 EUR, in major units as Medusa stores prices. */
const SHIPPING_PRICE_EUR = 4.9

export interface StarterShop {
  demo: RunningDemo
  storefrontUrl: string
  /** Milliseconds: the storefront's install and build (0 when the cached one served), and its start. */
  timings: { build: number; start: number }
  cleanUp(): Promise<void>
}

export type AdminCall = <T>(method: "GET" | "POST", path: string, body?: unknown) => Promise<T>

/** The admin API as the demo's admin user (seeding here, counting orders in the tests). */
export async function adminApi(demo: RunningDemo): Promise<AdminCall> {
  const login = await fetch(`${demo.urls.backend}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(demo.adminCredentials),
  })
  if (!login.ok) throw new Error(`the demo admin cannot log in: ${login.status} ${await login.text()}`)
  const { token } = (await login.json()) as { token: string }
  return async (method, path, body) => {
    const answer = await fetch(`${demo.urls.backend}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`)
    return (await answer.json()) as never
  }
}

/** What a merchant sets up in the admin before the starter's delivery step lists anything. */
async function seedShipping(demo: RunningDemo): Promise<void> {
  const admin = await adminApi(demo)
  const { sales_channels } = await admin<{ sales_channels: Array<{ id: string }> }>(
    "GET",
    "/admin/sales-channels?name=Nexi%20demo%20webshop",
  )
  const { stock_location } = await admin<{ stock_location: { id: string } }>("POST", "/admin/stock-locations", {
    name: "Milan warehouse",
  })
  await admin("POST", `/admin/stock-locations/${stock_location.id}/sales-channels`, { add: [sales_channels[0].id] })
  await admin("POST", `/admin/stock-locations/${stock_location.id}/fulfillment-providers`, { add: ["manual_manual"] })
  const withSet = await admin<{ stock_location: { fulfillment_sets: Array<{ id: string }> } }>(
    "POST",
    `/admin/stock-locations/${stock_location.id}/fulfillment-sets?fields=*fulfillment_sets`,
    { name: "Milan shipping", type: "shipping" },
  )
  const { fulfillment_set } = await admin<{ fulfillment_set: { service_zones: Array<{ id: string }> } }>(
    "POST",
    `/admin/fulfillment-sets/${withSet.stock_location.fulfillment_sets[0].id}/service-zones`,
    { name: "Italy", geo_zones: [{ type: "country", country_code: "it" }] },
  )
  let { shipping_profiles } = await admin<{ shipping_profiles: Array<{ id: string }> }>(
    "GET",
    "/admin/shipping-profiles?type=default",
  )
  if (!shipping_profiles.length) {
    const created = await admin<{ shipping_profile: { id: string } }>("POST", "/admin/shipping-profiles", {
      name: "Default",
      type: "default",
    })
    shipping_profiles = [created.shipping_profile]
  }
  const profileId = shipping_profiles[0].id
  await admin("POST", "/admin/shipping-options", {
    name: SHIPPING_OPTION,
    service_zone_id: fulfillment_set.service_zones[0].id,
    shipping_profile_id: profileId,
    provider_id: "manual_manual",
    price_type: "flat",
    type: { label: "Standard", description: "Two to four working days", code: "standard" },
    prices: [{ currency_code: "eur", amount: SHIPPING_PRICE_EUR }],
    rules: [
      { attribute: "enabled_in_store", value: "true", operator: "eq" },
      { attribute: "is_return", value: "false", operator: "eq" },
    ],
  })
  for (const product of demo.products) {
    await admin("POST", `/admin/products/${product.id}`, { shipping_profile_id: profileId })
  }
}

export async function startStarterShop(): Promise<StarterShop> {
  const fixture: DemoForTests = demoForTests()
  try {
    // Built while the store boots: both take a minute or more on a first run.
    let buildMs = 0
    const built = (async () => {
      const started = Date.now()
      if (await buildStarterStorefront()) buildMs = Date.now() - started
    })()
    // Both settle before going on, so a failed build still leaves the store to be stopped.
    const [store, build] = await Promise.allSettled([fixture.start({ storefront: false }), built])
    if (store.status === "rejected") throw store.reason
    if (build.status === "rejected") throw build.reason
    const demo = store.value
    await seedShipping(demo)
    const startedAt = Date.now()
    const storefront = await startStarterStorefront({
      port: demo.ports.storefront,
      backendUrl: demo.urls.backend,
      publishableKey: demo.publishableKey,
    })
    return {
      demo,
      storefrontUrl: storefront.url,
      timings: { build: buildMs, start: Date.now() - startedAt },
      cleanUp: async () => {
        await storefront.stop()
        await fixture.cleanUp()
      },
    }
  } catch (error) {
    await fixture.cleanUp()
    throw error
  }
}

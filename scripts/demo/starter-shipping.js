/**
 * What a Medusa Next.js starter's checkout needs of the demo's store beyond what the demo's own
 * storefront does without: a stock location serving Italy with a flat-rate shipping option, and
 * the products in its shipping profile (the starter's delivery step lists nothing otherwise).
 * Through the admin API, as a merchant would set it up; once per store (a second run finds the
 * option). `npm run demo -- --starter` and the starter-shaped storefront's browser tests use it.
 */

const SHIPPING_OPTION = "Standard shipping"
/** 4.90 EUR, in major units as Medusa stores prices. */
const SHIPPING_PRICE_EUR = 4.9

/**
 * The admin API as the demo's admin user.
 * @param {import("./start-demo").RunningDemo} demo
 */
async function adminApi(demo) {
  const login = await fetch(`${demo.urls.backend}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(demo.adminCredentials),
  })
  if (!login.ok) throw new Error(`the demo admin cannot log in: ${login.status} ${await login.text()}`)
  const { token } = await login.json()
  return async (method, path, body) => {
    const answer = await fetch(`${demo.urls.backend}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`)
    return answer.json()
  }
}

/** @param {import("./start-demo").RunningDemo} demo */
async function seedStarterShipping(demo) {
  const admin = await adminApi(demo)
  const existing = await admin("GET", "/admin/shipping-options?fields=id,name&limit=100")
  if (existing.shipping_options.some((option) => option.name === SHIPPING_OPTION)) return
  const { sales_channels } = await admin("GET", "/admin/sales-channels?name=Nexi%20demo%20webshop")
  const { stock_location } = await admin("POST", "/admin/stock-locations", { name: "Milan warehouse" })
  await admin("POST", `/admin/stock-locations/${stock_location.id}/sales-channels`, { add: [sales_channels[0].id] })
  await admin("POST", `/admin/stock-locations/${stock_location.id}/fulfillment-providers`, { add: ["manual_manual"] })
  const withSet = await admin(
    "POST",
    `/admin/stock-locations/${stock_location.id}/fulfillment-sets?fields=*fulfillment_sets`,
    { name: "Milan shipping", type: "shipping" },
  )
  const { fulfillment_set } = await admin(
    "POST",
    `/admin/fulfillment-sets/${withSet.stock_location.fulfillment_sets[0].id}/service-zones`,
    { name: "Italy", geo_zones: [{ type: "country", country_code: "it" }] },
  )
  let { shipping_profiles } = await admin("GET", "/admin/shipping-profiles?type=default")
  if (!shipping_profiles.length) {
    const created = await admin("POST", "/admin/shipping-profiles", { name: "Default", type: "default" })
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

module.exports = { SHIPPING_OPTION, adminApi, seedStarterShipping }

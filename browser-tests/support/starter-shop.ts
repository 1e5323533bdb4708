/**
 * The store behind the starter-shaped storefront's browser tests: the demo's store (database,
 * simulator, Medusa with the plugin, the seeded regions, products and shopper) without the
 * demo's own storefront, with the shipping a starter's checkout needs, as `npm run demo --
 * --starter` seeds it (scripts/demo/starter-shipping.js). Then a Next.js storefront, the
 * starter-shaped one or the plain Next.js app, built once (cached) and started on the port the
 * store's resultUrl and cancelUrl point at; the starter with `cardFields`, as a store that takes
 * new cards in the gateway's fields (docs/storefront.md, step 10).
 */
import type { RunningDemo } from "../../scripts/demo/start-demo"
import { seedStarterShipping } from "../../scripts/demo/starter-shipping"
import { type DemoForTests, demoForTests } from "./demo-shop"
import { buildStorefront, type StorefrontApp, startStorefront } from "./starter-storefront-server"

export { type AdminCall, adminApi, SHIPPING_OPTION } from "../../scripts/demo/starter-shipping"

export interface StarterShop {
  demo: RunningDemo
  storefrontUrl: string
  /** Milliseconds: the storefront's install and build (0 when the cached one served), and its start. */
  timings: { build: number; start: number }
  cleanUp(): Promise<void>
}

export interface StarterShopOptions {
  /** The storefront: the starter-shaped one (the default) or the plain Next.js app. */
  app?: StorefrontApp
  /**
   * The store takes new cards in the gateway's fields on the review step (XPay Build): the
   * starter's NEXI_CARD_FIELDS, with the SDK's integrity the demo read from the gateway
   * (GET /build/integrity) in NEXI_SDK_INTEGRITY. The plain app has no fields to show.
   */
  cardFields?: boolean
}

export async function startStarterShop({
  app = "starter",
  cardFields = false,
}: StarterShopOptions = {}): Promise<StarterShop> {
  if (cardFields && app !== "starter") {
    throw new Error(`cardFields: the ${app} app takes cards on the hosted page only; start the starter for the fields`)
  }
  const fixture: DemoForTests = demoForTests()
  try {
    // Built while the store boots: both take a minute or more on a first run.
    let buildMs = 0
    const built = (async () => {
      const started = Date.now()
      if (await buildStorefront(app)) buildMs = Date.now() - started
    })()
    // Both settle before going on, so a failed build still leaves the store to be stopped.
    const [store, build] = await Promise.allSettled([fixture.start({ storefront: false }), built])
    if (store.status === "rejected") throw store.reason
    if (build.status === "rejected") throw build.reason
    const demo = store.value
    await seedStarterShipping(demo)
    const startedAt = Date.now()
    const storefront = await startStorefront(app, {
      port: demo.ports.storefront,
      backendUrl: demo.urls.backend,
      publishableKey: demo.publishableKey,
      env: cardFields ? { NEXI_CARD_FIELDS: "true", NEXI_SDK_INTEGRITY: demo.sdkIntegrity } : {},
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

/**
 * The store behind the starter-shaped storefront's browser tests: the demo's store (database,
 * simulator, Medusa with the plugin, the seeded regions, products and shopper) without the
 * demo's own storefront, with the shipping a starter's checkout needs, as `npm run demo --
 * --starter` seeds it (scripts/demo/starter-shipping.js). Then a Next.js storefront, the
 * starter-shaped one or the plain Next.js app, built once (cached) and started on the port the
 * store's resultUrl and cancelUrl point at.
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

export async function startStarterShop(app: StorefrontApp = "starter"): Promise<StarterShop> {
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

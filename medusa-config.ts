/**
 * The development store of this repository: the one `npm run demo`, `medusa develop` and the
 * integration tests boot. Run from the repository root, Medusa loads `src/` (routes,
 * subscribers, jobs, admin widgets) as the project's own extensions, which is exactly what a
 * store gets through `plugins: [{ resolve: "medusa-payment-nexi" }]`; listing the plugin here
 * as well would load everything twice. integration-tests/packaged/ makes a new store that
 * installs the packed package with npm and runs it through Medusa's CLI, as a real store does.
 *
 * This file is not part of the published package (`files` is `.medusa/server` only).
 */
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const port = process.env.PORT ?? "9000"
const backendUrl = process.env.MEDUSA_BACKEND_URL ?? `http://localhost:${port}`
const storefrontUrl = process.env.STOREFRONT_URL ?? "http://localhost:8000"
const simulatorUrl = process.env.NEXI_SIMULATOR_URL ?? "http://127.0.0.1:4010"
const gatewayUrl = process.env.NEXI_ENVIRONMENT ?? `${simulatorUrl}/api/phoenix-0.0/psp/api/v1`
const resultUrl = process.env.NEXI_RESULT_URL ?? `${storefrontUrl}/checkout/nexi/result?cart_id={cart_id}`
const cancelUrl = process.env.NEXI_CANCEL_URL ?? `${storefrontUrl}/checkout?step=payment&cart_id={cart_id}`

/**
 * NEXI_TEST_ENTRIES=several (integration-tests/http/several-entries.spec.ts) adds two card
 * entries under ids other than "nexi", each its own merchant at the gateway, as a store selling
 * in two countries with two Nexi contracts would list them. The default store has one entry.
 */
function extraTestEntries() {
  if (process.env.NEXI_TEST_ENTRIES !== "several") return []
  const entry = (id: string, apiKey: string) => ({
    resolve: "./src/providers/nexi",
    id,
    options: {
      apiKey,
      environment: gatewayUrl,
      captureType: "EXPLICIT",
      notificationUrl: process.env.NEXI_NOTIFICATION_URL ?? backendUrl,
      resultUrl,
      cancelUrl,
    },
  })
  return [
    entry("nexi-it", process.env.NEXI_IT_API_KEY ?? "it-merchant-key"),
    entry("nexi-de", process.env.NEXI_DE_API_KEY ?? "de-merchant-key"),
  ]
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS ?? storefrontUrl,
      adminCors: process.env.ADMIN_CORS ?? backendUrl,
      authCors: process.env.AUTH_CORS ?? `${storefrontUrl},${backendUrl}`,
      jwtSecret: process.env.JWT_SECRET ?? "supersecret",
      cookieSecret: process.env.COOKIE_SECRET ?? "supersecret",
    },
  },
  admin: {
    disable: process.env.MEDUSA_ADMIN_DISABLED === "true",
  },
  modules: [
    // What a store gets from the plugin entry: the plugin's own module, the ledger.
    { resolve: "./src/modules/nexi-ledger" },
    {
      resolve: "@medusajs/medusa/payment",
      // The Nexi providers record every gateway write in the ledger before sending it.
      dependencies: ["nexi_ledger"],
      options: {
        providers: [
          {
            resolve: "./src/providers/nexi",
            id: "nexi",
            options: {
              apiKey: process.env.NEXI_API_KEY ?? "5d952446-9004-4023-9eae-a527a152846b",
              environment: gatewayUrl,
              captureType: process.env.NEXI_CAPTURE_TYPE ?? "EXPLICIT",
              notificationUrl: process.env.NEXI_NOTIFICATION_URL ?? backendUrl,
              resultUrl,
              cancelUrl,
              // The simulator offers both; with Nexi, only what the contract enables.
              wallets: ["GOOGLEPAY", "APPLEPAY"],
              apm: {
                consumerKey: process.env.NEXI_APM_CONSUMER_KEY ?? "sim-key",
                consumerSecret: process.env.NEXI_APM_CONSUMER_SECRET ?? "sim-secret",
                merchantId: process.env.NEXI_APM_MERCHANT_ID ?? "sim-merchant",
                environment: process.env.NEXI_APM_ENVIRONMENT ?? `${simulatorUrl}/apm`,
                terminalReference: process.env.NEXI_APM_TERMINAL_REFERENCE ?? "sim-terminal",
              },
            },
          },
          ...extraTestEntries(),
        ],
      },
    },
  ],
})

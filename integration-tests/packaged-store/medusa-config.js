/**
 * A store that installs the packed medusa-payment-nexi the way a real store does: the plugin
 * (routes, subscribers, jobs, admin) through `plugins`, the providers through the payment
 * module, both by package name. integration-tests/packaged/install.spec.ts packs the package,
 * unpacks it into this folder's node_modules and boots this store from here.
 */
const { defineConfig } = require("@medusajs/framework/utils")

const simulatorUrl = process.env.NEXI_SIMULATOR_URL
const backendUrl = process.env.MEDUSA_BACKEND_URL

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "test", cookieSecret: "test" },
  },
  admin: { disable: true },
  plugins: [{ resolve: "medusa-payment-nexi", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      dependencies: ["nexi_ledger"],
      options: {
        providers: [
          {
            resolve: "medusa-payment-nexi/providers/nexi",
            id: "nexi",
            options: {
              apiKey: "5d952446-9004-4023-9eae-a527a152846b",
              environment: `${simulatorUrl}/api/phoenix-0.0/psp/api/v1`,
              notificationUrl: backendUrl,
              resultUrl: "http://localhost:8000/checkout/result?cart_id={cart_id}",
              cancelUrl: "http://localhost:8000/checkout?cart_id={cart_id}",
              apm: {
                consumerKey: "sim-key",
                consumerSecret: "sim-secret",
                merchantId: "sim-merchant",
                environment: `${simulatorUrl}/apm`,
                terminalReference: "sim-terminal",
              },
            },
          },
        ],
      },
    },
  ],
})

/**
 * The store the benchmark boots (`medusa start` in this folder), in two forms that differ in
 * nothing but the plugin, so a memory difference is the plugin's:
 * - BENCH_WITH_PLUGIN=true: installs the BUILT plugin as a real store does, from the package
 *   root by path (its routes, subscribers and job through `plugins`, the providers through the
 *   payment module from .medusa/server), pointed at the bench's simulator.
 * - otherwise: the same store without it (Medusa's system payment provider only).
 * The database is migrated and seeded with the repository's own store config first
 * (scripts/demo), whose schema is the same: the plugin adds no tables.
 */
const path = require("node:path")
const { defineConfig } = require("@medusajs/framework/utils")

const PACKAGE_ROOT = path.resolve(__dirname, "..", "..", "..")
const withPlugin = process.env.BENCH_WITH_PLUGIN === "true"
const backendUrl = process.env.MEDUSA_BACKEND_URL

const nexiProvider = {
  resolve: path.join(PACKAGE_ROOT, ".medusa", "server", "src", "providers", "nexi"),
  id: "nexi",
  options: {
    apiKey: process.env.NEXI_API_KEY,
    environment: process.env.NEXI_ENVIRONMENT,
    notificationUrl: backendUrl,
    resultUrl: "http://localhost:8000/checkout/nexi/result?cart_id={cart_id}",
    cancelUrl: "http://localhost:8000/checkout?step=payment&cart_id={cart_id}",
    apm: {
      consumerKey: process.env.NEXI_APM_CONSUMER_KEY,
      consumerSecret: process.env.NEXI_APM_CONSUMER_SECRET,
      merchantId: "bench-merchant",
      environment: process.env.NEXI_APM_ENVIRONMENT,
      terminalReference: "bench-terminal",
    },
  },
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
      jwtSecret: process.env.JWT_SECRET,
      cookieSecret: process.env.COOKIE_SECRET,
    },
  },
  admin: { disable: true },
  plugins: withPlugin ? [{ resolve: PACKAGE_ROOT, options: {} }] : [],
  modules: withPlugin
    ? [{ resolve: "@medusajs/medusa/payment", dependencies: ["nexi_ledger"], options: { providers: [nexiProvider] } }]
    : [],
})

/**
 * The store integration-tests/crash runs as a process of its own (`medusa start`) and kills
 * with SIGKILL mid-call, and boots in the jest process to seed and read the same database.
 * No Redis: Medusa's in-memory event bus and workflow engine, one instance at a time handling
 * requests. Locking is on PostgreSQL, so the suite's hold on the reconciliation job's lock
 * (support/hold-reconcile-lock.ts) keeps the child's scheduled job out of the way too.
 *
 * The plugin is the built package (`.medusa/server`), loaded by path as in
 * integration-tests/production-store: Medusa loads a plugin only from its `.medusa/server`.
 */
const path = require("node:path")
const { defineConfig } = require("@medusajs/framework/utils")

const pluginRoot = path.resolve(__dirname, "..", "..")
const simulatorUrl = process.env.NEXI_SIMULATOR_URL ?? "http://127.0.0.1:4010"
const backendUrl = process.env.MEDUSA_BACKEND_URL ?? "http://localhost:9000"

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: "http://localhost:8000",
      adminCors: backendUrl,
      authCors: backendUrl,
      // One secret for both processes: a token the jest process issues works on the child.
      jwtSecret: "crash-store-test-secret",
      cookieSecret: "crash-store-test-secret",
    },
  },
  admin: { disable: true },
  plugins: [{ resolve: pluginRoot, options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [{ resolve: "@medusajs/medusa/locking-postgres", id: "locking-postgres", is_default: true }],
      },
    },
    {
      resolve: "@medusajs/medusa/payment",
      dependencies: ["nexi_ledger"],
      options: {
        providers: [
          {
            resolve: path.join(pluginRoot, ".medusa", "server", "src", "providers", "nexi"),
            id: "nexi",
            options: {
              apiKey: "5d952446-9004-4023-9eae-a527a152846b",
              environment: `${simulatorUrl}/api/phoenix-0.0/psp/api/v1`,
              captureType: "EXPLICIT",
              notificationUrl: backendUrl,
              resultUrl: "http://localhost:8000/checkout/nexi/result?cart_id={cart_id}",
              cancelUrl: "http://localhost:8000/checkout?step=payment&cart_id={cart_id}",
              // Mobile payments too: a start the store is killed in is found again by the job.
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

/**
 * A store configured the way one runs in production: Redis event bus, Redis workflow engine,
 * Redis locking and Redis caching, one configuration for every instance, the instance's role
 * chosen by MEDUSA_WORKER_MODE ("server" answers HTTP, "worker" runs subscribers and scheduled
 * jobs). docs/production.md is this file for store owners; integration-tests/production/ boots
 * a server instance (in the jest process) and a worker instance (`medusa start` in a child
 * process) from this folder against one database and one Redis.
 *
 * The plugin is the built package (`.medusa/server`, what npm ships), loaded by path from the
 * repository root instead of from node_modules: the same files a store installs, without
 * packing them (integration-tests/packaged/ proves the packing). Loading the TypeScript source
 * instead is not possible here: Medusa loads a project's own `src/` only from its own folder,
 * and a plugin always from its `.medusa/server`.
 *
 * package.json is there because `medusa start` (the worker) insists on one naming
 * @medusajs/medusa; nothing is installed here, every package resolves from the repository root.
 *
 * REDIS_KEY_PREFIX is for machines where several stores (or test runs) share one Redis: every
 * key and queue of this store starts with it. Unset, Medusa's own key names are used.
 */
const path = require("node:path")
const { defineConfig } = require("@medusajs/framework/utils")

const pluginRoot = path.resolve(__dirname, "..", "..")
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
const keyPrefix = process.env.REDIS_KEY_PREFIX ?? ""
const simulatorUrl = process.env.NEXI_SIMULATOR_URL ?? "http://127.0.0.1:4010"
const backendUrl = process.env.MEDUSA_BACKEND_URL ?? "http://localhost:9000"

/** BullMQ names its keys `<prefix>:<queue>:...`; the queue and its worker must agree on it. */
function bullPrefix(name) {
  return keyPrefix ? { prefix: `${keyPrefix}${name}` } : {}
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    // Sessions of the admin and of logged-in customers, shared by every server instance.
    redisUrl,
    redisPrefix: keyPrefix,
    workerMode: process.env.MEDUSA_WORKER_MODE ?? "shared",
    http: {
      storeCors: process.env.STORE_CORS ?? "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS ?? backendUrl,
      authCors: process.env.AUTH_CORS ?? backendUrl,
      jwtSecret: process.env.JWT_SECRET ?? "production-store-test-secret",
      cookieSecret: process.env.COOKIE_SECRET ?? "production-store-test-secret",
    },
  },
  admin: { disable: true },
  // Medusa 2.21 caches through the Caching Module only when this flag is on.
  featureFlags: { caching: true },
  plugins: [{ resolve: pluginRoot, options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/event-bus-redis",
      options: {
        redisUrl,
        queueOptions: bullPrefix("events"),
        workerOptions: bullPrefix("events"),
      },
    },
    {
      resolve: "@medusajs/medusa/workflow-engine-redis",
      options: {
        redis: {
          redisUrl,
          queueOptions: bullPrefix("workflows"),
          workerOptions: bullPrefix("workflows"),
        },
      },
    },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/locking-redis",
            id: "locking-redis",
            is_default: true,
            options: { redisUrl, namespace: `${keyPrefix}medusa_lock:` },
          },
        ],
      },
    },
    {
      resolve: "@medusajs/medusa/caching",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/caching-redis",
            id: "caching-redis",
            is_default: true,
            options: { redisUrl, prefix: `${keyPrefix}mc:` },
          },
        ],
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
              apiKey: process.env.NEXI_API_KEY ?? "5d952446-9004-4023-9eae-a527a152846b",
              environment: process.env.NEXI_ENVIRONMENT ?? `${simulatorUrl}/api/phoenix-0.0/psp/api/v1`,
              notificationUrl: backendUrl,
              resultUrl: "http://localhost:8000/checkout/nexi/result?cart_id={cart_id}",
              cancelUrl: "http://localhost:8000/checkout?step=payment&cart_id={cart_id}",
            },
          },
        ],
      },
    },
  ],
})

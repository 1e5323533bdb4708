/**
 * The environment every Medusa command of the demo runs with (migrate, seed, user, start).
 * The store is the repository's own medusa-config.ts; these variables point it at the demo's
 * database, ports, storefront and simulator.
 *
 * Variables that would send the demo elsewhere are replaced or removed rather than inherited
 * from the shell: a developer's real NEXI_API_KEY or STORE_CORS must not leak into the demo.
 * The provider's resultUrl, cancelUrl and notificationUrl are then derived by medusa-config.ts
 * from STOREFRONT_URL and MEDUSA_BACKEND_URL.
 */
const { urlsFor } = require("./settings")

const DROPPED = [
  "NEXI_RESULT_URL",
  "NEXI_CANCEL_URL",
  "NEXI_NOTIFICATION_URL",
  "STORE_CORS",
  "ADMIN_CORS",
  "AUTH_CORS",
  "REDIS_URL",
  "DB_HOST",
  "DB_PORT",
  "DB_USERNAME",
  "DB_PASSWORD",
  "DB_NAME",
]

/**
 * @param {{ databaseUrl: string, ports: { medusa: number, storefront: number, simulator: number },
 *   secrets: { jwtSecret: string, cookieSecret: string }, providerEnvironment: Record<string, string>,
 *   admin?: boolean }} options
 */
function medusaEnvironment({ databaseUrl, ports, secrets, providerEnvironment, admin = true }) {
  const urls = urlsFor(ports)
  const env = { ...process.env }
  for (const name of DROPPED) delete env[name]
  return {
    ...env,
    // What `medusa develop` gives its server: TypeScript sources, the admin served by vite.
    NODE_ENV: "development",
    DATABASE_URL: databaseUrl,
    PORT: String(ports.medusa),
    MEDUSA_BACKEND_URL: urls.backend,
    STOREFRONT_URL: urls.storefront,
    NEXI_SIMULATOR_URL: urls.simulator,
    JWT_SECRET: secrets.jwtSecret,
    COOKIE_SECRET: secrets.cookieSecret,
    MEDUSA_ADMIN_DISABLED: admin ? "false" : "true",
    MEDUSA_DISABLE_TELEMETRY: "true",
    ...providerEnvironment,
  }
}

module.exports = { medusaEnvironment }

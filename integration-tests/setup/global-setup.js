/**
 * Gives the integration suites a PostgreSQL and fixed loopback ports.
 *
 * Database: with DB_HOST set, the runners use that server (for example
 * `DB_HOST=localhost DB_USERNAME=postgres npm test` against the machine's own). Without it,
 * an embedded PostgreSQL is started for this run and stopped in the teardown, so `npm test`
 * passes on a machine with no database at all.
 *
 * Ports: the store's notification URL and the simulator's address are provider options, read
 * when medusa-config.ts loads, so both ports are chosen here, before any suite boots Medusa.
 */
const path = require("node:path")
const { freePort } = require("../../scripts/lib/free-port")
const { startEmbeddedPostgres } = require("../../scripts/lib/embedded-postgres")

module.exports = async function globalSetup() {
  const medusaPort = await freePort()
  const simulatorPort = await freePort()
  Object.assign(process.env, {
    PORT: String(medusaPort),
    MEDUSA_BACKEND_URL: `http://localhost:${medusaPort}`,
    NEXI_SIMULATOR_PORT: String(simulatorPort),
    NEXI_SIMULATOR_URL: `http://127.0.0.1:${simulatorPort}`,
    MEDUSA_ADMIN_DISABLED: "true",
    MEDUSA_DISABLE_TELEMETRY: "true",
  })
  if (process.env.DB_HOST) return
  const database = await startEmbeddedPostgres({
    // One directory per run, so two runs on one machine do not share a cluster.
    dataDir: path.join(__dirname, "..", "..", ".cache", `embedded-postgres-test-${process.pid}`),
  })
  Object.assign(process.env, {
    DB_HOST: database.host,
    DB_PORT: String(database.port),
    DB_USERNAME: database.user,
    DB_PASSWORD: database.password,
  })
  globalThis.__NEXI_EMBEDDED_POSTGRES__ = database
}

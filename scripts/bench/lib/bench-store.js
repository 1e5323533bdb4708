/**
 * The bench's database and seeded store, built from the demo's pieces (scripts/demo): its
 * database (embedded PostgreSQL in the data directory, or DATABASE_URL), its Medusa
 * environment, its migration and its seed, with the bench's additions (store/seed-bench-store.js).
 * The demo's own simulator is not used: it rewrites a state file after every change, which
 * would cost more than the checkouts being measured; the bench's simulator has none.
 */
const fs = require("node:fs")
const path = require("node:path")
const { openDatabase } = require("../../demo/database")
const { runMedusa } = require("../../demo/medusa-cli")
const { medusaEnvironment } = require("../../demo/medusa-env")
const { migrateDatabase } = require("../../demo/migrate")
const { loadOrCreateSecrets } = require("../../demo/secrets")
const { freePort } = require("../../lib/free-port")
const { API_KEY } = require("./card-provider")

const SEED_SCRIPT = path.join(__dirname, "..", "store", "seed-bench-store.js")

/** The provider settings the stores read from the environment: the bench's simulator, its default credentials. */
function simulatorEnvironment(simulator) {
  return {
    NEXI_ENVIRONMENT: simulator.gatewayUrl,
    NEXI_API_KEY: API_KEY,
    NEXI_APM_ENVIRONMENT: simulator.apmUrl,
    NEXI_APM_CONSUMER_KEY: "sim-key",
    NEXI_APM_CONSUMER_SECRET: "sim-secret",
  }
}

/**
 * @param {{ dataDir: string, databaseUrl?: string, simulator: { url: string, gatewayUrl: string, apmUrl: string }, log: (line: string) => void }} options
 * @returns {Promise<{ env: NodeJS.ProcessEnv, port: number, store: any, timings: Record<string, number>, stop: () => Promise<void> }>}
 */
async function prepareBenchStore({ dataDir, databaseUrl, simulator, log }) {
  const timings = {}
  const step = async (name, action) => {
    const started = Date.now()
    const result = await action()
    timings[name] = Date.now() - started
    return result
  }
  fs.mkdirSync(dataDir, { recursive: true })
  log(`store: opening the database (${databaseUrl ? "DATABASE_URL" : "embedded PostgreSQL"})`)
  // pg_stat_statements: the statements a checkout costs the database (parts/profile.js).
  const postgresFlags = ["-c", "shared_preload_libraries=pg_stat_statements"]
  const database = await step("database", () => openDatabase({ dataDir, databaseUrl, quiet: true, postgresFlags }))
  try {
    const port = await freePort()
    const env = medusaEnvironment({
      databaseUrl: database.url,
      ports: { medusa: port, storefront: 8000, simulator: Number(new URL(simulator.url).port) },
      secrets: loadOrCreateSecrets(dataDir),
      providerEnvironment: simulatorEnvironment(simulator),
      admin: false,
    })
    log("store: migrating the database")
    await step("migrate", () => migrateDatabase({ env, dataDir, databaseIdentity: database.identity, quiet: true }))
    log("store: seeding")
    const resultFile = path.join(dataDir, "bench-store.json")
    await step("seed", () => runMedusa(["exec", SEED_SCRIPT, resultFile], { env, quiet: true, name: "medusa seed" }))
    const store = JSON.parse(fs.readFileSync(resultFile, "utf8"))
    return { env, port, store, timings, stop: database.stop }
  } catch (error) {
    await database.stop()
    throw error
  }
}

module.exports = { prepareBenchStore }

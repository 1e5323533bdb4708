/**
 * startDemo(): the whole demo, in order: database and simulator, migrations, the seeded store
 * (with its registered shopper) and its admin user, the Medusa server, the storefront. stop() undoes it in reverse, so
 * Medusa closes before the database it uses. Used by `npm run demo` (index.js) and by the
 * browser tests (free ports, a temporary data directory).
 */
const fs = require("node:fs")
const path = require("node:path")
const { ensureAdminUser } = require("./admin-user")
const { logChildOutputTo } = require("./child-process")
const { openDatabase } = require("./database")
const { medusaEnvironment } = require("./medusa-env")
const { startMedusaServer } = require("./medusa-server")
const { migrateDatabase } = require("./migrate")
const { choosePorts } = require("./ports")
const { loadOrCreateSecrets } = require("./secrets")
const { rememberSeededStore, seedStore, seededStoreOfLastRun } = require("./seed-store")
const { DEFAULT_DATA_DIR, DEMO_ADMIN_EMAIL, DEMO_SHOPPER_EMAIL, urlsFor } = require("./settings")
const { readSdkIntegrity, simulatorProviderEnvironment, startDemoSimulator } = require("./simulator")
const { seededStoreAnswers } = require("./store-check")
const { startStorefront } = require("./storefront-server")

/** Stops what was started, newest first; one failing stop does not keep the others running. */
function stopper(log) {
  const stops = []
  let stopping
  return {
    /** Registers a started part (anything with stop()) and gives it back. */
    add: (name, part) => {
      stops.push({ name, stop: part.stop })
      return part
    },
    stopAll: () => {
      stopping ??= (async () => {
        for (const { name, stop } of stops.reverse()) {
          try {
            await stop()
          } catch (error) {
            log(`could not stop ${name}: ${error.message}`)
          }
        }
      })()
      return stopping
    },
  }
}

/** Runs the steps of a start, recording how long each took; an aborted start goes no further. */
function stepRunner(timings, signal) {
  return async (name, step) => {
    signal?.throwIfAborted()
    const started = Date.now()
    const result = await step()
    timings[name] = Date.now() - started
    signal?.throwIfAborted()
    return result
  }
}

/** "12.3 s" */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

/**
 * The demo's log file: every child's output and the demo's own lines, whatever is shown on
 * the terminal. Rewritten by each start (mode 0600: Medusa's log may hold what a shopper typed).
 */
function openLogFile(logFile) {
  if (!logFile) return { write: () => {}, close: async () => {} }
  const stream = fs.createWriteStream(logFile, { flags: "w", mode: 0o600 })
  // A log that cannot be written is no reason to stop the demo.
  stream.on("error", () => {})
  stream.write(`# npm run demo, started ${new Date().toISOString()}\n`)
  logChildOutputTo(stream)
  return {
    write: (line) => stream.write(line),
    close: () =>
      new Promise((resolve) => {
        logChildOutputTo(null)
        stream.end(resolve)
      }),
  }
}

/**
 * @param {{ ports?: { medusa?: number, storefront?: number, simulator?: number }, dataDir?: string,
 *   databaseUrl?: string, quiet?: boolean, progressOnly?: boolean, logFile?: string, admin?: boolean, storefront?: boolean,
 *   signal?: AbortSignal }} [options]
 *   Terminal output: everything by default (each process's lines, prefixed); `progressOnly`:
 *   the demo's own progress lines only; `quiet`: nothing. `logFile` gets everything either way.
 *   `admin: false` skips the admin dashboard (faster boot, for tests); `storefront: false` leaves
 *   the demo storefront out, its port free for another one (the starter-shaped storefront of the
 *   browser tests); `signal` aborts a start.
 */
async function startDemo({
  ports = {},
  dataDir = DEFAULT_DATA_DIR,
  databaseUrl = process.env.DATABASE_URL,
  quiet: silent = false,
  progressOnly = false,
  logFile,
  admin = true,
  storefront = true,
  signal,
} = {}) {
  fs.mkdirSync(dataDir, { recursive: true })
  const logOutput = openLogFile(logFile)
  const log = (line) => {
    logOutput.write(`[demo] ${line}\n`)
    if (!silent) process.stdout.write(`[demo] ${line}\n`)
  }
  // What the steps print: the processes' own output, shown only in the verbose mode.
  const quiet = silent || progressOnly
  let chosenPorts
  let secrets
  try {
    chosenPorts = await choosePorts(ports)
    secrets = loadOrCreateSecrets(dataDir)
  } catch (error) {
    await logOutput.close()
    throw error
  }
  const urls = urlsFor(chosenPorts)
  const started = stopper(log)
  // Registered first, so it is closed last: the other parts' last lines still reach it.
  started.add("the log file", { stop: logOutput.close })
  const timings = {}
  const timed = stepRunner(timings, signal)
  const startedAt = Date.now()
  try {
    log("starting the database and the gateway simulator")
    // Both settle before going on, so a failure of one still leaves the other to be stopped.
    const [database, simulator] = await Promise.allSettled([
      timed("database", async () =>
        started.add("the database", await openDatabase({ dataDir, databaseUrl, quiet, signal })),
      ),
      timed("simulator", async () => {
        const stateFile = path.join(dataDir, "simulator-state.json")
        return started.add(
          "the simulator",
          await startDemoSimulator({ port: chosenPorts.simulator, stateFile, secrets, quiet, signal }),
        )
      }),
    ])
    if (database.status === "rejected") throw database.reason
    if (simulator.status === "rejected") throw simulator.reason
    if (database.value.embeddedFiles && database.value.embeddedFiles !== path.resolve(dataDir, "postgres")) {
      log(
        `the database files are in ${database.value.embeddedFiles}: the "postgres" system user cannot reach ${path.resolve(dataDir)}`,
      )
    }
    log(`database and gateway simulator ready (${seconds(Math.max(timings.database, timings.simulator))})`)
    const sdkIntegrity = await readSdkIntegrity(simulator.value, secrets)

    const env = medusaEnvironment({
      databaseUrl: database.value.url,
      ports: chosenPorts,
      secrets,
      providerEnvironment: simulatorProviderEnvironment(simulator.value, secrets),
      admin,
    })
    const migration = await timed("migrate", () => {
      log("migrating the database (about a minute on a first start)")
      return migrateDatabase({ env, dataDir, databaseIdentity: database.value.identity, quiet, signal })
    })
    log(
      migration.ran
        ? `database migrated (${seconds(timings.migrate)})`
        : "database schema up to date: migrations skipped",
    )
    const adminCredentials = { email: DEMO_ADMIN_EMAIL, password: secrets.adminPassword }
    const shopperCredentials = { email: DEMO_SHOPPER_EMAIL, password: secrets.shopperPassword }
    const prepareStore = async () => {
      const seeded = await timed("seed", () => {
        log("seeding the store (or finding the one seeded before)")
        return seedStore({ env, dataDir, adminEmail: DEMO_ADMIN_EMAIL, shopper: shopperCredentials, quiet, signal })
      })
      log(`store seeded (${seconds(timings.seed)})`)
      if (!seeded.adminUserExists) log("creating the admin user")
      await timed("adminUser", () =>
        ensureAdminUser({ env, ...adminCredentials, exists: seeded.adminUserExists, quiet, signal }),
      )
      const store = { ...seeded, adminUserExists: true }
      rememberSeededStore(dataDir, database.value.identity, store)
      return store
    }

    // A store seeded by an earlier run is checked through the running server instead of
    // booting Medusa once more to look for it; it is seeded again only if the check fails.
    const lastRun = seededStoreOfLastRun(dataDir, database.value.identity)
    let store = lastRun ?? (await prepareStore())
    log(admin ? "starting Medusa and its admin" : "starting Medusa")
    await timed("medusa", async () =>
      started.add("Medusa", await startMedusaServer({ env, port: chosenPorts.medusa, quiet, signal })),
    )
    log(`Medusa ready (${seconds(timings.medusa)})`)
    if (lastRun) {
      const intact = await timed("storeCheck", () =>
        seededStoreAnswers({ backendUrl: urls.backend, store: lastRun, adminCredentials, shopperCredentials }),
      )
      if (intact) log("reusing the store seeded by an earlier run")
      else store = await prepareStore()
    }
    if (storefront)
      await timed("storefront", async () => {
        const config = {
          backendUrl: urls.backend,
          publishableKey: store.publishableKey,
          adminUrl: admin ? urls.admin : null,
          simulatorUrl: urls.simulator,
          sdkIntegrity,
        }
        return started.add("the storefront", await startStorefront({ port: chosenPorts.storefront, config }))
      })
    timings.total = Date.now() - startedAt
    return {
      urls,
      ports: chosenPorts,
      adminCredentials,
      shopperCredentials,
      publishableKey: store.publishableKey,
      regions: store.regions,
      products: store.products,
      migrated: migration.ran,
      sdkIntegrity,
      timings,
      stop: started.stopAll,
    }
  } catch (error) {
    await started.stopAll()
    throw error
  }
}

module.exports = { startDemo }

/**
 * The parts that need a running store, in the order that keeps them apart: the store without
 * the plugin (memory footprint), then the store with it (footprint, round trips, throughput,
 * the session anatomy, the CPU profile, memory growth up to 1,000 checkouts). Each part's
 * failure is recorded and the next runs.
 */
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { prepareBenchStore } = require("./lib/bench-store")
const { mapLimit } = require("./lib/pool")
const { settle } = require("./lib/settle")
const { simControl } = require("./lib/sim-control")
const { shopper: createShopper } = require("./lib/shopper")
const { adminApi, storeApi } = require("./lib/store-api")
const { startStoreServer } = require("./lib/store-server")
const { dropDatabase, throwawayDatabaseUrl } = require("./lib/throwaway-database")
const memory = require("./parts/memory")
const { profileCheckouts } = require("./parts/profile")
const { measureRoundTrips } = require("./parts/round-trips")
const { measureSessionAnatomy } = require("./parts/session-anatomy")
const { measureThroughput } = require("./parts/throughput")

/** Runs one part; its failure is recorded in its place and the next part still runs. */
async function attempt(figures, name, action) {
  try {
    figures[name] = await action()
  } catch (error) {
    figures[name] = { error: error.stack ?? String(error) }
  }
}

/** @param {Record<string, string>} [headers] more headers on the shopper's store API calls */
async function shopperFor(server, store, control, headers) {
  const api = storeApi(server.url, store.publishableKey, headers)
  const euro = store.regions.find((region) => region.currency_code === "eur")
  const { products } = await api.get(`/store/products?region_id=${euro.id}&fields=id,variants.id`)
  return createShopper({ api, control, regionId: euro.id, variantId: products[0].variants[0].id })
}

/** Two shoppers whose requests the store's request probe traces, labelled by provider. */
async function tracedShoppers(server, store, control) {
  const traced = (label) => shopperFor(server, store, control, { "x-bench-trace": label })
  return { nexi: await traced("nexi"), system: await traced("system") }
}

/**
 * @param {{ simulator: any, settings: any, figures: Record<string, unknown>, cleanups: Array<() => Promise<void>>, log: (line: string) => void, alone?: string[] }} run
 *   `alone`: only these of the parts "profile" and "anatomy", in the store with the plugin, warmed up.
 */
async function runStoreParts({ simulator, settings, figures, cleanups, log, alone }) {
  const control = simControl(simulator.controlUrl)
  // The overhead part left tens of thousands of orders and request records; none matter here.
  await control.reset()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medusa-payment-nexi-bench-"))
  // mkdtemp makes it 0700: the embedded PostgreSQL, run as its own user when we are root, must get in.
  fs.chmodSync(dataDir, 0o755)
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }))
  const databaseUrl = process.env.DATABASE_URL ? throwawayDatabaseUrl(process.env.DATABASE_URL) : undefined
  if (databaseUrl) cleanups.push(() => dropDatabase(databaseUrl))
  const bench = await prepareBenchStore({ dataDir, databaseUrl, simulator, log })
  cleanups.push(bench.stop)
  figures.storeSetupMs = bench.timings

  const boot = async (withPlugin) => {
    log(`store: starting Medusa ${withPlugin ? "with" : "without"} the plugin`)
    const name = withPlugin ? "plugin" : "no-plugin"
    const memoryFile = path.join(dataDir, `memory-${name}.json`)
    const cpuProfileFile = path.join(dataDir, `checkouts-${name}.cpuprofile`)
    const traceFile = path.join(dataDir, `traces-${name}.jsonl`)
    const server = await startStoreServer({
      env: bench.env,
      port: bench.port,
      withPlugin,
      memoryFile,
      cpuProfileFile,
      traceFile,
    })
    cleanups.push(server.stop)
    return { server, shopper: await shopperFor(server, bench.store, control) }
  }
  const anatomy = (server) => async () =>
    measureSessionAnatomy({
      shoppers: await tracedShoppers(server, bench.store, control),
      traceFile: server.traceFile,
      control,
      ...settings.anatomy,
      log,
    })
  const profile = (server, shopper) => () =>
    profileCheckouts({
      server,
      simulatorPid: simulator.pid,
      shopper,
      control,
      databaseUrl: bench.env.DATABASE_URL,
      ...settings.profile,
      log,
    })
  if (alone) {
    const { server, shopper } = await boot(true)
    // Warm both paths up (JIT, pools), as the full run's earlier parts do.
    await mapLimit(settings.warmupCheckouts, 5, () => shopper.systemCheckout())
    await mapLimit(settings.warmupCheckouts, 5, () => shopper.cardCheckout())
    await settle(control)
    if (alone.includes("anatomy")) await attempt(figures, "sessionAnatomy", anatomy(server))
    if (alone.includes("profile")) await attempt(figures, "profile", profile(server, shopper))
    return
  }
  const footprints = {}
  const withoutPlugin = await boot(false)
  footprints.withoutPlugin = await memory.footprint({ ...withoutPlugin, warmupCheckouts: settings.warmupCheckouts })
  await withoutPlugin.server.stop()
  const { server, shopper } = await boot(true)
  footprints.withPlugin = await memory.footprint({ server, shopper, warmupCheckouts: settings.warmupCheckouts })
  figures.memory = footprints

  await attempt(figures, "roundTrips", () =>
    measureRoundTrips({
      shopper,
      admin: adminApi(server.url, bench.store.adminApiKey),
      control,
      checkouts: settings.roundTripCheckouts,
      log,
    }),
  )
  await attempt(figures, "throughput", () => measureThroughput({ shopper, control, levels: settings.throughput, log }))
  await attempt(figures, "sessionAnatomy", anatomy(server))
  await attempt(figures, "profile", profile(server, shopper))
  await attempt(footprints, "growth", () =>
    memory.growth({
      server,
      shopper,
      control,
      afterWarmup: footprints.withPlugin.afterWarmup,
      target: settings.memoryCheckouts,
      every: settings.memoryEvery,
      log,
    }),
  )
}

module.exports = { runStoreParts }

#!/usr/bin/env node
/**
 * npm run bench: the plugin's figures, measured on this machine against the gateway
 * simulator on loopback, side by side with their references so the ratios hold on a noisy
 * machine. Prints one table per measurement and ends with one JSON line of every figure.
 * Progress goes to stderr. Uses the built plugin (.medusa/server); `npm run bench` builds it.
 *
 *   node scripts/bench/index.js [--quick] [--only=overhead,connections,store,anatomy,profile]
 *
 * DATABASE_URL: a PostgreSQL server to use (a throwaway database is created on it and dropped);
 * without it an embedded PostgreSQL runs in a temporary directory. See docs/benchmark.md.
 */
const os = require("node:os")
const { ROOT } = require("./lib/built")
const { printReport } = require("./lib/report")
const { parseArguments } = require("./lib/settings")
const { startSimulatorProcess } = require("./lib/simulator-process")
const { measureConnections } = require("./parts/connections")
const { measureOverhead } = require("./parts/overhead")
const { runStoreParts } = require("./store-run")

const log = (line) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`)

function machine() {
  const cpus = os.cpus()
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memoryMiB: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  }
}

async function main() {
  let options
  try {
    options = parseArguments(process.argv.slice(2))
  } catch (error) {
    log(error.message)
    process.exitCode = 2
    return
  }
  const { quick, parts, settings } = options
  const started = Date.now()
  const results = {
    bench: "medusa-payment-nexi",
    version: require(`${ROOT}/package.json`).version,
    startedAt: new Date(started).toISOString(),
    quick,
    machine: machine(),
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
    figures: {},
  }
  const cleanups = []
  let stopping = false
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse())
      await cleanup().catch((error) => log(`cleanup: ${error.message}`))
  }
  const interrupt = () => {
    if (stopping) return
    stopping = true
    log("interrupted: stopping what the bench started")
    cleanUp().finally(() => process.exit(130))
  }
  process.once("SIGINT", interrupt)
  process.once("SIGTERM", interrupt)

  const simulator = await startSimulatorProcess()
  cleanups.push(simulator.stop)
  try {
    const { figures } = results
    if (parts.includes("overhead")) {
      figures.overhead = await measureOverhead({ simulator, passes: settings.overhead, log }).catch((error) => ({
        error: error.stack,
      }))
    }
    if (parts.includes("connections")) {
      figures.connections = await measureConnections({ simulator, calls: settings.connectionCalls, log }).catch(
        (error) => ({ error: error.stack }),
      )
    }
    const alone = parts.filter((part) => part === "profile" || part === "anatomy")
    if (parts.includes("store") || alone.length) {
      await runStoreParts({
        simulator,
        settings,
        figures,
        cleanups,
        log,
        alone: parts.includes("store") ? undefined : alone,
      }).catch((error) => {
        figures.store = { error: error.stack }
      })
    }
  } finally {
    await cleanUp()
  }
  results.durationMs = Date.now() - started
  results.loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100)
  printReport(results)
  const failed = Object.entries(results.figures).filter(([, figure]) => figure?.error)
  if (failed.length) process.exitCode = 1
}

main().catch((error) => {
  log(error.stack ?? String(error))
  process.exitCode = 1
})

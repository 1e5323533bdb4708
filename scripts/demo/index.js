#!/usr/bin/env node
/**
 * npm run demo: the plugin in a running store, with nothing installed but Node. Starts an
 * embedded PostgreSQL (or uses DATABASE_URL), the gateway simulator, a seeded Medusa store with
 * its admin, and a small storefront; prints the addresses and the credentials of the admin and
 * of the demo shopper; stops everything on Ctrl-C. A second run reuses the data directory (.demo/).
 *
 * Output: the demo's progress lines and the summary; every process's full output goes to
 * <data directory>/demo.log. `--verbose` (npm run demo -- --verbose) or DEMO_VERBOSE=1 shows
 * it on the terminal too; DEMO_QUIET=true shows only the summary. `--starter` serves a Medusa
 * Next.js starter instead of the demo's storefront: its port left free, shipping seeded.
 *
 * Environment: DATABASE_URL, DEMO_DATA_DIR, DEMO_MEDUSA_PORT (9000), DEMO_STOREFRONT_PORT
 * (8000), DEMO_SIMULATOR_PORT (4010), DEMO_VERBOSE, DEMO_QUIET. See docs/demo.md.
 */
const path = require("node:path")
const { DEFAULT_DATA_DIR, DEFAULT_PORTS } = require("./settings")
const { startDemo } = require("./start-demo")
const { seedStarterShipping } = require("./starter-shipping")

/** A port from the environment, or the default; anything else stops the demo with the variable's name. */
function portFromEnv(name, fallback) {
  const value = process.env[name]
  if (value === undefined || value === "") return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`${name} must be a port number from 1 to 65535 (got "${value}")`)
  return port
}

const USAGE = `Usage: npm run demo [-- --verbose] [-- --starter]
  --verbose   every process's output on the terminal (also DEMO_VERBOSE=1); by default only
              the progress lines, the full output in <data directory>/demo.log
  --starter   for a Medusa Next.js starter (docs/storefront.md): no demo storefront, its port
              left for the starter, a shipping option for Italy seeded for its delivery step
See docs/demo.md for the environment variables.`

const truthy = (value) => ["1", "true", "yes", "on"].includes(String(value ?? "").toLowerCase())

/** --verbose, from the command line or the environment; --starter; --help prints the usage. */
function parseArguments(argv) {
  let verbose = truthy(process.env.DEMO_VERBOSE)
  let starter = false
  for (const arg of argv) {
    if (arg === "--verbose" || arg === "-v") verbose = true
    else if (arg === "--starter") starter = true
    else if (arg === "--help" || arg === "-h") return { help: true }
    else throw new Error(`unknown argument "${arg}"\n${USAGE}`)
  }
  // `npm run demo --verbose` (without the `--`) is npm's own flag: npm sets its log level instead.
  if (process.env.npm_config_loglevel === "verbose") verbose = true
  return { verbose, starter }
}

/** A path as the user would type it: relative to the current directory when inside it. */
function shownPath(file) {
  const relative = path.relative(process.cwd(), file)
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file
}

/** What a starter's .env.local needs to talk to this store, on the port the return URLs point at. */
function starterLines(demo) {
  return [
    `  Starter storefront: start yours on ${demo.urls.storefront} (the return URLs point there), with`,
    `    NEXT_PUBLIC_MEDUSA_BACKEND_URL=${demo.urls.backend}`,
    `    NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY=${demo.publishableKey}`,
    "    NEXT_PUBLIC_DEFAULT_REGION=it",
    "    and for the card fields in the checkout (docs/storefront.md, step 10):",
    "    NEXI_CARD_FIELDS=true",
    `    NEXI_SDK_INTEGRITY=${demo.sdkIntegrity}`,
  ]
}

function summary(demo, logFile, starter) {
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
  return [
    "",
    "Nexi payments demo is running",
    ...(starter ? starterLines(demo) : [`  Storefront:        ${demo.urls.storefront}`]),
    `    shopper email:   ${demo.shopperCredentials.email}`,
    `    password:        ${demo.shopperCredentials.password}`,
    `  Medusa admin:      ${demo.urls.admin}`,
    `    email:           ${demo.adminCredentials.email}`,
    `    password:        ${demo.adminCredentials.password}`,
    `  Store API:         ${demo.urls.backend} (publishable key ${demo.publishableKey})`,
    `  Gateway simulator: ${demo.urls.simulator}`,
    `  Regions:           ${demo.regions.map((region) => `${region.name}`).join(", ")}`,
    "  Test cards and phone numbers: docs/simulator.md and docs/simulator-apm.md",
    `  Full log:          ${shownPath(logFile)}`,
    `  Started in ${seconds(demo.timings.total)}${demo.migrated ? "" : " (data reused)"}. Press Ctrl-C to stop.`,
    "",
  ].join("\n")
}

async function main() {
  const args = parseArguments(process.argv.slice(2))
  if (args.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const quiet = process.env.DEMO_QUIET === "true"
  const dataDir = process.env.DEMO_DATA_DIR ? path.resolve(process.env.DEMO_DATA_DIR) : DEFAULT_DATA_DIR
  const logFile = path.join(dataDir, "demo.log")
  const options = {
    ports: {
      medusa: portFromEnv("DEMO_MEDUSA_PORT", DEFAULT_PORTS.medusa),
      storefront: portFromEnv("DEMO_STOREFRONT_PORT", DEFAULT_PORTS.storefront),
      simulator: portFromEnv("DEMO_SIMULATOR_PORT", DEFAULT_PORTS.simulator),
    },
    dataDir,
    quiet,
    progressOnly: !args.verbose,
    logFile,
  }
  failureHint = `Full log: ${shownPath(logFile)}`
  if (!quiet && !args.verbose) {
    process.stdout.write(
      `[demo] progress only; every process's output goes to ${shownPath(logFile)} (npm run demo -- --verbose shows it here)\n`,
    )
  }
  const starting = new AbortController()
  let demo
  let stopping
  const stop = (signalName) => {
    if (stopping) {
      process.stdout.write(`${signalName}: still stopping, please wait\n`)
      return
    }
    process.stdout.write(`\n${signalName}: stopping the demo\n`)
    stopping = true
    if (!demo) {
      starting.abort()
      return
    }
    demo.stop().then(() => {
      process.stdout.write("demo stopped\n")
      process.exit(0)
    })
  }
  // SIGHUP: the terminal window was closed.
  for (const signalName of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signalName, () => stop(signalName))
  try {
    demo = await startDemo({ ...options, storefront: !args.starter, signal: starting.signal })
    if (args.starter) await seedStarterShipping(demo)
  } catch (error) {
    if (starting.signal.aborted) {
      process.stdout.write("demo stopped before it had started\n")
      process.exit(0)
    }
    throw error
  }
  process.stdout.write(summary(demo, logFile, args.starter))
}

/** Where to look after a failure, once the log file is known. */
let failureHint = ""

main().catch((error) => {
  process.stderr.write(`demo failed: ${error.message}\n${failureHint ? `${failureHint}\n` : ""}`)
  process.exit(1)
})

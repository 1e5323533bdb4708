#!/usr/bin/env node
/**
 * npm run demo: the plugin in a running store, with nothing installed but Node. Starts an
 * embedded PostgreSQL (or uses DATABASE_URL), the gateway simulator, a seeded Medusa store with
 * its admin, and a small storefront; prints the addresses and the admin's credentials; stops
 * everything on Ctrl-C. A second run reuses the data directory (.demo/).
 *
 * Environment: DATABASE_URL, DEMO_DATA_DIR, DEMO_MEDUSA_PORT (9000), DEMO_STOREFRONT_PORT
 * (8000), DEMO_SIMULATOR_PORT (4010), DEMO_QUIET=true for only the summary. See docs/demo.md.
 */
const path = require("node:path")
const { DEFAULT_DATA_DIR, DEFAULT_PORTS } = require("./settings")
const { startDemo } = require("./start-demo")

/** A port from the environment, or the default; anything else stops the demo with the variable's name. */
function portFromEnv(name, fallback) {
  const value = process.env[name]
  if (value === undefined || value === "") return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`${name} must be a port number from 1 to 65535 (got "${value}")`)
  return port
}

function summary(demo) {
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
  return [
    "",
    "Nexi payments demo is running",
    `  Storefront:        ${demo.urls.storefront}`,
    `  Medusa admin:      ${demo.urls.admin}`,
    `    email:           ${demo.adminCredentials.email}`,
    `    password:        ${demo.adminCredentials.password}`,
    `  Store API:         ${demo.urls.backend} (publishable key ${demo.publishableKey})`,
    `  Gateway simulator: ${demo.urls.simulator}`,
    `  Regions:           ${demo.regions.map((region) => `${region.name}`).join(", ")}`,
    "  Test cards and phone numbers: docs/simulator.md and docs/simulator-apm.md",
    `  Started in ${seconds(demo.timings.total)}${demo.migrated ? "" : " (data reused)"}. Press Ctrl-C to stop.`,
    "",
  ].join("\n")
}

async function main() {
  const options = {
    ports: {
      medusa: portFromEnv("DEMO_MEDUSA_PORT", DEFAULT_PORTS.medusa),
      storefront: portFromEnv("DEMO_STOREFRONT_PORT", DEFAULT_PORTS.storefront),
      simulator: portFromEnv("DEMO_SIMULATOR_PORT", DEFAULT_PORTS.simulator),
    },
    dataDir: process.env.DEMO_DATA_DIR ? path.resolve(process.env.DEMO_DATA_DIR) : DEFAULT_DATA_DIR,
    quiet: process.env.DEMO_QUIET === "true",
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
    demo = await startDemo({ ...options, signal: starting.signal })
  } catch (error) {
    if (starting.signal.aborted) {
      process.stdout.write("demo stopped before it had started\n")
      process.exit(0)
    }
    throw error
  }
  process.stdout.write(summary(demo))
}

main().catch((error) => {
  process.stderr.write(`demo failed: ${error.message}\n`)
  process.exit(1)
})

/**
 * The gateway simulator for the demo: the built CLI (`npm run demo` builds first) in a
 * process of its own, on loopback with the control API (the demo's phone page link and the
 * browser tests use it) and a state file in the data directory, so orders of the previous run
 * are still known to it. Credentials are the demo's own (secrets.js); the store gets the same.
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { startChild, stopChild } = require("./child-process")
const { REPO_ROOT } = require("./settings")

const CLI = path.join(REPO_ROOT, ".medusa", "server", "src", "simulator", "cli.js")

/** Reads the addresses the CLI prints once it listens; resolves when the banner is complete. */
function bannerReader() {
  const addresses = {}
  let resolveReady
  const ready = new Promise((resolve) => {
    resolveReady = resolve
  })
  const onLine = (line) => {
    const match = /^\s*(card gateway|APM service|control):\s+(\S+)/.exec(line)
    if (!match) return
    addresses[match[1]] = match[2]
    if (match[1] === "control")
      resolveReady({ gatewayUrl: addresses["card gateway"], apmUrl: addresses["APM service"] })
  }
  return { onLine, ready }
}

/**
 * @param {{ port: number, stateFile: string, secrets: { gatewayApiKey: string, apmConsumerKey: string, apmConsumerSecret: string }, quiet?: boolean, signal?: AbortSignal }} options
 * @returns {Promise<{ gatewayUrl: string, apmUrl: string, stop: () => Promise<void> }>}
 */
async function startDemoSimulator({ port, stateFile, secrets, quiet = false, signal }) {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build the plugin first (npm run build)`)
  const banner = bannerReader()
  const handle = startChild(
    process.execPath,
    [
      CLI,
      // name=value: a random secret may begin with "-", which the CLI would take for an option.
      `--port=${port}`,
      "--host=127.0.0.1",
      "--control",
      `--state=${stateFile}`,
      `--api-key=${secrets.gatewayApiKey}`,
      `--apm-consumer-key=${secrets.apmConsumerKey}`,
      `--apm-consumer-secret=${secrets.apmConsumerSecret}`,
      ...(quiet ? ["--quiet"] : []),
    ],
    { name: "simulator", cwd: REPO_ROOT, quiet, onLine: banner.onLine, signal },
  )
  const started = await Promise.race([banner.ready, handle.exited.then(() => undefined)])
  if (!started) throw new Error(`the gateway simulator did not start:\n${handle.recentOutput()}`)
  return { ...started, stop: () => stopChild(handle) }
}

/**
 * The Subresource Integrity of the gateway's card fields SDK (hfsdk.js), read as a shop's
 * operator reads it: GET /build/integrity with the store's API key. A page that hosts the card
 * fields loads the SDK with it (docs/storefront.md, "PCI DSS").
 * @param {{ gatewayUrl: string }} simulator
 * @param {{ gatewayApiKey: string }} secrets
 */
async function readSdkIntegrity(simulator, secrets) {
  const answer = await fetch(`${simulator.gatewayUrl}/build/integrity`, {
    headers: { "X-API-KEY": secrets.gatewayApiKey, "Correlation-Id": crypto.randomUUID() },
  })
  if (!answer.ok) throw new Error(`GET /build/integrity answered ${answer.status}: ${await answer.text()}`)
  return (await answer.json()).integrity
}

/** What medusa-config.ts reads to point the Nexi providers at this simulator. */
function simulatorProviderEnvironment(simulator, secrets) {
  return {
    NEXI_ENVIRONMENT: simulator.gatewayUrl,
    NEXI_API_KEY: secrets.gatewayApiKey,
    NEXI_APM_ENVIRONMENT: simulator.apmUrl,
    NEXI_APM_CONSUMER_KEY: secrets.apmConsumerKey,
    NEXI_APM_CONSUMER_SECRET: secrets.apmConsumerSecret,
  }
}

module.exports = { readSdkIntegrity, simulatorProviderEnvironment, startDemoSimulator }

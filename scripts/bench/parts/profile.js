/**
 * Where the store's CPU goes during checkouts: V8's CPU profiler (store/cpu-probe.js) runs in
 * the Medusa server during one round of `checkouts` checkouts by `shoppers` shoppers with the
 * system provider, then one with Nexi, each until the store has handled every notification.
 * The CPU per checkout of the two, by origin (the plugin, Medusa, the database driver, zod,
 * axios, node, GC), shows what a Nexi checkout costs the store on top of Medusa's own; the
 * plugin's top functions by self time show where in the plugin.
 */
const fs = require("node:fs")
const path = require("node:path")
const { summarizeProfile } = require("../lib/cpu-profile")
const { settle } = require("../lib/settle")
const { runRound } = require("./throughput")

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitForFile(file, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the server wrote no CPU profile to ${file}`)
    await sleep(200)
  }
}

/**
 * CPU time the process has used (user + system, all its threads), from /proc: what the
 * profile's samples cannot give, as they count wall time while the process waits for a core.
 */
function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  const ticksPerSecond = 100
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
}

async function profileRound({ name, server, control, checkout, shoppers, checkouts }) {
  fs.rmSync(server.cpuProfileFile, { force: true })
  process.kill(server.pid, "SIGTTIN")
  await sleep(500)
  const cpuBefore = processCpuMs(server.pid)
  const round = await runRound(checkout, shoppers, checkouts)
  // The notifications' handling is part of what a checkout costs the store.
  await settle(control)
  const cpuMs = processCpuMs(server.pid) - cpuBefore
  process.kill(server.pid, "SIGTTOU")
  await waitForFile(server.cpuProfileFile)
  const summary = summarizeProfile(JSON.parse(fs.readFileSync(server.cpuProfileFile, "utf8")))
  // Kept for Chrome DevTools (Performance > Load profile) when asked for.
  if (process.env.BENCH_PROFILE_DIR) {
    fs.mkdirSync(process.env.BENCH_PROFILE_DIR, { recursive: true })
    fs.copyFileSync(server.cpuProfileFile, path.join(process.env.BENCH_PROFILE_DIR, `checkouts-${name}.cpuprofile`))
  }
  const completed = round.times.complete.length
  const perCheckout = (ms) => Math.round((ms / Math.max(completed, 1)) * 100) / 100
  // The samples say where the time went; /proc says how much CPU there was to share out.
  const share = (ms) => perCheckout((ms / Math.max(summary.busyMs, 1)) * cpuMs)
  return {
    checkouts: completed,
    errors: round.errors.length,
    cpuMsPerCheckout: perCheckout(cpuMs),
    busyMs: summary.busyMs,
    pluginInclusiveCpuMsPerCheckout: share(summary.pluginInclusiveMs),
    byOriginCpuMsPerCheckout: Object.fromEntries(
      Object.entries(summary.byOriginMs)
        .filter(([origin]) => origin !== "idle")
        .map(([origin, ms]) => [origin, share(ms)]),
    ),
    topPluginFunctions: summary.topPluginFunctions.map((entry) => ({ ...entry, selfCpuMsPerCheckout: share(entry.selfMs) })),
  }
}

/**
 * @param {{ server: any, shopper: any, control: any, shoppers: number, checkouts: number, log: (line: string) => void }} run
 */
async function profileCheckouts({ server, shopper, control, shoppers, checkouts, log }) {
  const result = { shoppers, checkouts }
  for (const [name, checkout] of [
    ["system", () => shopper.systemCheckout()],
    ["nexi", () => shopper.cardCheckout()],
  ]) {
    log(`profile: ${shoppers} shoppers, ${name}: ${checkouts} checkouts under the CPU profiler`)
    result[name] = await profileRound({ name, server, control, checkout, shoppers, checkouts })
  }
  return result
}

module.exports = { profileCheckouts }

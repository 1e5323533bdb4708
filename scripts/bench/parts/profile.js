/**
 * Where the CPU goes during checkouts. Four rounds of `checkouts` checkouts by `shoppers`
 * shoppers: system provider, Nexi, Nexi, system (so neither side always runs first, on a
 * warmer or a cooler store), each until the store has handled every notification. For each
 * provider, per completed checkout:
 * - the CPU of every process taking part (the store, the database server, the simulator, the
 *   shoppers) and of the whole machine, from /proc;
 * - the store's CPU by where its code comes from (the plugin, Medusa, the database driver, zod,
 *   node, GC), from V8's CPU profiler in the Medusa server (store/cpu-probe.js), and the
 *   plugin's top functions by self time;
 * - the statements the database ran, from pg_stat_statements (lib/statement-counts.js).
 */
const fs = require("node:fs")
const path = require("node:path")
const { summarizeProfiles } = require("../lib/cpu-profile")
const { cpuSnapshot, cpuUsedBetween } = require("../lib/process-cpu")
const { settle } = require("../lib/settle")
const {
  mergeStatements,
  statementCounter,
  statementDifference,
  statementsPerCheckout,
} = require("../lib/statement-counts")
const { runRound } = require("./throughput")

const ORDER = ["system", "nexi", "nexi", "system"]

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitForFile(file, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the server wrote no CPU profile to ${file}`)
    await sleep(200)
  }
}

/** One round under the profiler: what it cost, raw, to be summed with the other round of its kind. */
async function profileRound({ label, server, simulatorPid, control, statements, checkout, shoppers, checkouts }) {
  fs.rmSync(server.cpuProfileFile, { force: true })
  await statements.reset()
  process.kill(server.pid, "SIGTTIN")
  await sleep(500)
  const pids = { store: server.pid, simulator: simulatorPid }
  const cpuBefore = cpuSnapshot(pids)
  const round = await runRound(checkout, shoppers, checkouts)
  // The notifications' handling is part of what a checkout costs the store.
  await settle(control)
  const cpuUsed = cpuUsedBetween(cpuBefore, cpuSnapshot(pids))
  const statementsRun = await statements.read()
  process.kill(server.pid, "SIGTTOU")
  await waitForFile(server.cpuProfileFile)
  // Kept for Chrome DevTools (Performance > Load profile) when asked for.
  if (process.env.BENCH_PROFILE_DIR) {
    fs.mkdirSync(process.env.BENCH_PROFILE_DIR, { recursive: true })
    fs.copyFileSync(server.cpuProfileFile, path.join(process.env.BENCH_PROFILE_DIR, `checkouts-${label}.cpuprofile`))
  }
  return {
    completed: round.times.complete.length,
    errors: round.errors.length,
    cpuUsed,
    profile: JSON.parse(fs.readFileSync(server.cpuProfileFile, "utf8")),
    statementsRun,
  }
}

const statementsOf = (rounds) => mergeStatements(rounds.map((round) => round.statementsRun))
const completedIn = (rounds) => rounds.reduce((sum, round) => sum + round.completed, 0)

/** The rounds of one provider, summed and given per completed checkout. */
function perCheckoutFigures(rounds, statements) {
  const completed = completedIn(rounds)
  const perCheckout = (ms) => Math.round((ms / Math.max(completed, 1)) * 100) / 100
  const cpuUsed = {}
  for (const round of rounds)
    for (const [process, ms] of Object.entries(round.cpuUsed)) cpuUsed[process] = (cpuUsed[process] ?? 0) + ms
  const summary = summarizeProfiles(rounds.map((round) => round.profile))
  // The samples say where the store's time went; /proc says how much CPU there was to share out.
  const share = (ms) => perCheckout((ms / Math.max(summary.busyMs, 1)) * cpuUsed.store)
  return {
    checkouts: completed,
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    cpuMsPerCheckout: perCheckout(cpuUsed.store),
    // Every process of the round: on 2 cores they all compete for the same CPUs.
    byProcessCpuMsPerCheckout: Object.fromEntries(
      Object.entries(cpuUsed).map(([process, ms]) => [process, perCheckout(ms)]),
    ),
    busyMs: summary.busyMs,
    pluginInclusiveCpuMsPerCheckout: share(summary.pluginInclusiveMs),
    byOriginCpuMsPerCheckout: Object.fromEntries(
      Object.entries(summary.byOriginMs)
        .filter(([origin]) => origin !== "idle")
        .map(([origin, ms]) => [origin, share(ms)]),
    ),
    topPluginFunctions: summary.topPluginFunctions.map((entry) => ({
      ...entry,
      selfCpuMsPerCheckout: share(entry.selfMs),
    })),
    database: statements.available
      ? statementsPerCheckout(statementsOf(rounds), completed)
      : { unavailable: statements.why },
  }
}

/**
 * @param {{ server: any, simulatorPid: number, shopper: any, control: any, databaseUrl: string, shoppers: number, checkouts: number, log: (line: string) => void }} run
 */
async function profileCheckouts({ server, simulatorPid, shopper, control, databaseUrl, shoppers, checkouts, log }) {
  const checkoutOf = { system: () => shopper.systemCheckout(), nexi: () => shopper.cardCheckout() }
  const statements = await statementCounter(databaseUrl)
  const rounds = { system: [], nexi: [] }
  try {
    for (const [index, name] of ORDER.entries()) {
      log(
        `profile: ${shoppers} shoppers, ${name}, round ${index + 1} of ${ORDER.length}: ${checkouts} checkouts under the CPU profiler`,
      )
      const label = `${name}-${rounds[name].length + 1}`
      rounds[name].push(
        await profileRound({
          label,
          server,
          simulatorPid,
          control,
          statements,
          checkout: checkoutOf[name],
          shoppers,
          checkouts,
        }),
      )
    }
  } finally {
    await statements.close()
  }
  return {
    shoppers,
    checkouts: checkouts * 2,
    system: perCheckoutFigures(rounds.system, statements),
    nexi: perCheckoutFigures(rounds.nexi, statements),
    statementsAddedByNexi: statements.available
      ? statementDifference(
          statementsOf(rounds.nexi),
          completedIn(rounds.nexi),
          statementsOf(rounds.system),
          completedIn(rounds.system),
        )
      : [],
  }
}

module.exports = { profileCheckouts }

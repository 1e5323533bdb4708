/**
 * How much each part measures: the full run (about 15 minutes on a 2-core machine) or
 * `--quick` (a few minutes, for checking the bench itself; its figures are rougher).
 * Overhead runs twice: with the simulator answering at once (the strictest ratio: the whole
 * denominator is loopback HTTP) and with 20 ms of latency, a gateway close by (Nexi's real API
 * answers in tens to hundreds of ms, where the same overhead weighs even less).
 */
const SETTINGS = {
  full: {
    overhead: [
      { latencyMs: 0, samples: 1200, warmup: 120 },
      { latencyMs: 20, samples: 300, warmup: 30 },
    ],
    connectionCalls: 1000,
    roundTripCheckouts: 5,
    // Enough checkouts per level that one slow request moves no median: 20, 50 and 100 per round.
    throughput: [
      { shoppers: 1, checkouts: 40 },
      { shoppers: 10, checkouts: 100 },
      { shoppers: 50, checkouts: 200 },
    ],
    // One at a time, alternating: enough that one slow fsync moves no median.
    anatomy: { checkouts: 40 },
    profile: { shoppers: 50, checkouts: 100 },
    warmupCheckouts: 20,
    memoryCheckouts: 1000,
    memoryEvery: 250,
  },
  quick: {
    overhead: [
      { latencyMs: 0, samples: 300, warmup: 50 },
      { latencyMs: 20, samples: 60, warmup: 10 },
    ],
    connectionCalls: 1000,
    roundTripCheckouts: 2,
    throughput: [
      { shoppers: 1, checkouts: 4 },
      { shoppers: 10, checkouts: 20 },
      { shoppers: 50, checkouts: 50 },
    ],
    anatomy: { checkouts: 6 },
    profile: { shoppers: 50, checkouts: 50 },
    warmupCheckouts: 10,
    memoryCheckouts: 150,
    memoryEvery: 50,
  },
}

const PARTS = ["overhead", "connections", "store", "anatomy", "profile"]
/** The anatomy and the profile run within the store part; alone (`--only=anatomy,profile`) they start the store for themselves. */
const DEFAULT_PARTS = ["overhead", "connections", "store"]

/**
 * `--quick`, `--only=overhead,connections,store,anatomy,profile` (store: round trips, throughput,
 * the session anatomy, the CPU profile and memory, which share a running store; anatomy,
 * profile: those alone).
 */
function parseArguments(argv) {
  const options = { quick: false, parts: DEFAULT_PARTS }
  for (const argument of argv) {
    if (argument === "--quick") options.quick = true
    else if (argument.startsWith("--only=")) {
      options.parts = argument.slice("--only=".length).split(",")
      const unknown = options.parts.filter((part) => !PARTS.includes(part))
      if (unknown.length) throw new Error(`--only: unknown part ${unknown.join(", ")} (parts: ${PARTS.join(", ")})`)
    } else
      throw new Error(
        `unknown argument ${argument} (usage: node scripts/bench/index.js [--quick] [--only=${PARTS.join(",")}])`,
      )
  }
  return { ...options, settings: SETTINGS[options.quick ? "quick" : "full"] }
}

module.exports = { parseArguments }

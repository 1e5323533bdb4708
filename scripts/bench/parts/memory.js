/**
 * Memory of the Medusa server process, each figure read right after a full garbage collection
 * (store/memory-probe.js): the RSS, and the heap in use, which is what a leak would grow (RSS
 * alone also holds garbage V8 has not collected yet: it was seen 600 MiB above the collected
 * figure after a few hundred checkouts, and falling back).
 * - Footprint: the bench store booted without the plugin and with it (store/medusa-config.js,
 *   nothing else differs), read when idle after boot and after the same warm-up of
 *   system-provider checkouts, so the difference is what loading the plugin costs.
 * - Growth: with the plugin, read as Nexi card checkouts accumulate up to 1,000 (those of the
 *   round-trip and throughput parts count), once the store has handled every notification.
 *   Bounds: after the last checkout, the heap in use at most TARGETS.heapGrowthMiB above the
 *   one after warm-up (a leak of 40 KiB per checkout breaks it), and the RSS at most
 *   RSS_GROWTH_BOUND_MIB above the first sample of the series (V8 keeps pages it no longer
 *   uses, so RSS settles later than the heap: 20 warm-up checkouts are not enough).
 */
const { memoryAfterGc } = require("../lib/process-memory")
const { mapLimit } = require("../lib/pool")
const { settle } = require("../lib/settle")
const { TARGETS } = require("../lib/targets")

const RSS_GROWTH_BOUND_MIB = 128
const IDLE_MS = 5_000
const WARMUP_SHOPPERS = 5
const FILL_SHOPPERS = 20

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * @param {{ server: { pid: number, memoryFile: string, bootMs: number }, shopper: ReturnType<import("../lib/shopper").shopper>, warmupCheckouts: number }} run
 */
async function footprint({ server, shopper, warmupCheckouts }) {
  await sleep(IDLE_MS)
  const idle = await memoryAfterGc(server)
  await mapLimit(warmupCheckouts, WARMUP_SHOPPERS, () => shopper.systemCheckout())
  await sleep(IDLE_MS)
  return { bootMs: server.bootMs, idle, afterWarmup: await memoryAfterGc(server) }
}

/**
 * @param {{ server: { pid: number, memoryFile: string }, shopper: ReturnType<import("../lib/shopper").shopper>,
 *   control: ReturnType<import("../lib/sim-control").simControl>, afterWarmup: { heapUsedMiB: number },
 *   target: number, every: number, log: (line: string) => void }} run
 */
async function growth({ server, shopper, control, afterWarmup, target, every, log }) {
  const samples = []
  const sample = async () => {
    await settle(control)
    samples.push({ checkouts: shopper.completed.card, ...(await memoryAfterGc(server)) })
  }
  await sample()
  while (shopper.completed.card < target) {
    const batch = Math.min(every - (shopper.completed.card % every), target - shopper.completed.card)
    log(`memory: Nexi card checkouts ${shopper.completed.card} -> ${shopper.completed.card + batch}`)
    await mapLimit(batch, FILL_SHOPPERS, () => shopper.cardCheckout())
    await sample()
  }
  const last = samples[samples.length - 1]
  const tenths = (value) => Math.round(value * 10) / 10
  const heapGrewMiB = tenths(last.heapUsedMiB - afterWarmup.heapUsedMiB)
  const rssGrewMiB = tenths(last.rssMiB - samples[0].rssMiB)
  return {
    samples,
    bounds: { heapMiB: TARGETS.heapGrowthMiB, rssMiB: RSS_GROWTH_BOUND_MIB },
    heapGrewMiB,
    rssGrewMiB,
    met: heapGrewMiB <= TARGETS.heapGrowthMiB && rssGrewMiB <= RSS_GROWTH_BOUND_MIB,
  }
}

module.exports = { footprint, growth }

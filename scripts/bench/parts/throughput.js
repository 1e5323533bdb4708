/**
 * Throughput: completed checkouts per second through the running store with 1, 10 and 50
 * concurrent shoppers, each checkout a full cart -> hosted payment -> notification -> order
 * (lib/shopper.js), against the same shoppers paying with Medusa's system provider in the
 * same store and region, the baseline. Side by side: each level runs in rounds that alternate
 * the two providers (and which goes first), and between rounds the store finishes handling
 * the notifications it received (lib/settle.js), so one round's leftovers never slow the next.
 */
const { performance } = require("node:perf_hooks")
const { mapLimit } = require("../lib/pool")
const { settle } = require("../lib/settle")
const { round, summarize } = require("../lib/stats")

const ROUNDS = 2

/** The timed steps of a checkout, as lib/shopper.js returns them (`cartMs`, `sessionMs`, ...). */
const STEPS = ["cart", "session", "pay", "complete"]

/** `checkouts` checkouts by `shoppers` shoppers, each doing one after the other. */
async function runRound(checkout, shoppers, checkouts) {
  const times = Object.fromEntries(STEPS.map((step) => [step, []]))
  const errors = []
  const started = performance.now()
  await mapLimit(checkouts, shoppers, async () => {
    try {
      const timed = await checkout()
      for (const step of STEPS) if (timed[`${step}Ms`] !== undefined) times[step].push(timed[`${step}Ms`])
    } catch (error) {
      errors.push(error.message)
    }
  })
  return { wallMs: performance.now() - started, times, errors }
}

function merge(rounds) {
  return {
    wallMs: rounds.reduce((sum, part) => sum + part.wallMs, 0),
    ...Object.fromEntries(STEPS.map((step) => [step, rounds.flatMap((part) => part.times[step])])),
    errors: rounds.flatMap((part) => part.errors),
  }
}

function summary(merged) {
  const ms = (values) => {
    if (values.length === 0) return { p50: null, p95: null }
    const { p50, p95 } = summarize(values)
    return { p50: round(p50, 1), p95: round(p95, 1) }
  }
  return {
    checkouts: merged.complete.length,
    errors: merged.errors.length,
    firstError: merged.errors[0],
    perSecond: round(merged.complete.length / (merged.wallMs / 1000), 2),
    // One shopper's checkouts follow each other, so the steps add up to the whole time of one.
    ...Object.fromEntries(STEPS.map((step) => [`${step}Ms`, ms(merged[step])])),
  }
}

/**
 * @param {{ shopper: ReturnType<import("../lib/shopper").shopper>, control: ReturnType<import("../lib/sim-control").simControl>,
 *   levels: Array<{ shoppers: number, checkouts: number }>, log: (line: string) => void }} run
 *   `checkouts`: per provider and level, split over the rounds.
 */
async function measureThroughput({ shopper, control, levels, log }) {
  const providers = { nexi: () => shopper.cardCheckout(), system: () => shopper.systemCheckout() }
  const results = []
  for (const level of levels) {
    const rounds = { nexi: [], system: [] }
    const perRound = Math.ceil(level.checkouts / ROUNDS)
    for (let index = 0; index < ROUNDS; index++) {
      const order = index % 2 === 0 ? ["nexi", "system"] : ["system", "nexi"]
      for (const name of order) {
        log(`throughput: ${level.shoppers} shopper(s), ${name}, round ${index + 1} of ${ROUNDS}: ${perRound} checkouts`)
        rounds[name].push(await runRound(providers[name], level.shoppers, perRound))
        await settle(control)
      }
    }
    const nexi = summary(merge(rounds.nexi))
    const system = summary(merge(rounds.system))
    results.push({ shoppers: level.shoppers, nexi, system, ratio: round(nexi.perSecond / system.perSecond, 3) })
  }
  return results
}

module.exports = { measureThroughput, runRound }

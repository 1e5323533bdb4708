/**
 * The checkout-cost targets (issue 24), in one place: every part's "met" column and the summary
 * of several runs (runs-summary.js) judge by these. One run's "met" is a hint; a target is met
 * when the median of three runs meets it, which is what runs-summary.js reports.
 */
const TARGETS = {
  /** CPU the provider adds to a bare axios call on the same agent, gateway answering at once: ms p50 per gateway call. */
  addedMsPerCall: 0.3,
  /** The provider's median time over the bare call's, gateway 20 ms away, for every call. */
  medianRatioAt20Ms: 1.05,
  /** Checkouts per second against Medusa's system provider, by number of shoppers. */
  throughputRatio: { 1: 0.9, 10: 0.95, 50: 0.95 },
  /** Heap in use after 1,000 checkouts, above the one after warm-up. */
  heapGrowthMiB: 32,
}

/** Gateway requests per provider call of the overhead part, where more than one: cancel reads the order, then voids it. */
const GATEWAY_CALLS = { cancel: 2 }

/** What the provider adds per gateway request, from an overhead row's added ms (the per-call target is per request). */
function addedMsPerCall({ call, addedMs }) {
  return Math.round((addedMs / (GATEWAY_CALLS[call] ?? 1)) * 1000) / 1000
}

/** The gateway latencies an overhead target is set for. */
const OVERHEAD_TARGET_LATENCIES_MS = [0, 20]

/** Whether an overhead row meets its target; undefined at a latency no target is set for. */
function overheadMet(latencyMs, row) {
  if (latencyMs === 0) return addedMsPerCall(row) <= TARGETS.addedMsPerCall
  if (latencyMs === 20) return row.medianRatio <= TARGETS.medianRatioAt20Ms
  return undefined
}

/** Whether a throughput ratio meets its target; undefined for a number of shoppers with none. */
function throughputMet(shoppers, ratio) {
  const target = TARGETS.throughputRatio[shoppers]
  return target === undefined ? undefined : ratio >= target
}

/** The target of an overhead pass, as its table's title says it. */
function overheadTarget(latencyMs) {
  if (latencyMs === 0) return `added (p50) per gateway call <= ${TARGETS.addedMsPerCall} ms`
  if (latencyMs === 20) return `median ratio <= ${TARGETS.medianRatioAt20Ms}`
  return "none at this latency"
}

module.exports = { OVERHEAD_TARGET_LATENCIES_MS, TARGETS, addedMsPerCall, overheadMet, overheadTarget, throughputMet }

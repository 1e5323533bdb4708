/**
 * The statistics every part reports: nearest-rank percentiles (the value of a real sample,
 * never an interpolation between two), and ratios rounded for the table.
 */

/** Nearest-rank percentile of `values` (any order); p in (0, 100]. */
function percentile(values, p) {
  if (values.length === 0) throw new Error("percentile of no samples")
  const sorted = Float64Array.from(values).sort()
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/** Median, p95 and p99 of a list of durations, and how many there were. */
function summarize(values) {
  return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) }
}

/** `value` rounded to `digits` decimals, as a number (for the JSON line and the table). */
function round(value, digits = 3) {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

module.exports = { percentile, round, summarize }

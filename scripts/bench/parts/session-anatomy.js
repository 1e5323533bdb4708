/**
 * Where one shopper's checkout spends its time, request by request, Nexi against the system
 * provider: one checkout at a time, alternating the two (and which goes first), each request
 * traced inside the store (store/request-probe.js): its whole time, the database statements
 * it ran, the gateway calls it made, and the rest (node: Medusa, the plugin, the ORM, the
 * HTTP handling). At one shopper nothing queues, so these are the costs themselves; the
 * statements are named, so the payment session's extra time reads as a list of causes.
 *
 * The probe counts to a request whatever runs while it is in the server, so nothing else may
 * run then: the simulator sends no notifications during this part (their handling, 5 seconds
 * after each payment, would land inside later requests; the profile part counts it), and
 * requests that overlapped are refused.
 */
const fs = require("node:fs")
const { settle } = require("../lib/settle")
const { percentile, round } = require("../lib/stats")

/** The store requests of a checkout, by path. */
const STEPS = [
  ["cart", /^\/store\/carts$/],
  ["payment collection", /^\/store\/payment-collections$/],
  ["payment session", /^\/store\/payment-collections\/[^/]+\/payment-sessions$/],
  ["completion", /^\/store\/carts\/[^/]+\/complete$/],
]
/** Steps whose statements are listed one by one. */
const DETAILED = ["payment session", "completion"]

const p50 = (values) => (values.length ? round(percentile(values, 50), 2) : 0)
const sum = (values) => values.reduce((total, value) => total + value, 0)

function stepOf(trace) {
  return trace.method === "POST" ? STEPS.find(([, pattern]) => pattern.test(trace.path))?.[0] : undefined
}

function readTraces(file) {
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** Medians of one provider's requests of one step. */
function summarizeStep(traces) {
  const statementMs = traces.map((trace) => sum(trace.statements.map(([, ms]) => ms)))
  const gatewayMs = traces.map((trace) => sum(trace.outgoingMs))
  return {
    requests: traces.length,
    wallMs: p50(traces.map((trace) => trace.wallMs)),
    statements: p50(traces.map((trace) => trace.statements.length)),
    statementMs: p50(statementMs),
    gatewayMs: p50(gatewayMs),
    restMs: p50(traces.map((trace, index) => trace.wallMs - statementMs[index] - gatewayMs[index])),
  }
}

/** Per statement label: how many a request runs (mean) and the time they take in it (median). */
function statementsByLabel(traces) {
  const labels = new Set(traces.flatMap((trace) => trace.statements.map(([label]) => label)))
  const byLabel = {}
  for (const label of labels) {
    const ofTrace = traces.map((trace) => trace.statements.filter(([name]) => name === label))
    byLabel[label] = {
      count: round(sum(ofTrace.map((list) => list.length)) / Math.max(traces.length, 1), 2),
      ms: p50(ofTrace.map((list) => sum(list.map(([, ms]) => ms)))),
    }
  }
  return byLabel
}

/** Every label of either provider, side by side, most added time first. */
function statementsSideBySide(nexi, system) {
  const labels = new Set([...Object.keys(nexi), ...Object.keys(system)])
  const none = { count: 0, ms: 0 }
  return [...labels]
    .map((label) => {
      const [a, b] = [nexi[label] ?? none, system[label] ?? none]
      return {
        statement: label,
        nexiCount: a.count,
        systemCount: b.count,
        nexiMs: a.ms,
        systemMs: b.ms,
        addedMs: round(a.ms - b.ms, 2),
      }
    })
    .sort((x, y) => y.addedMs - x.addedMs)
}

/** Whether a statement's count or time differs enough between the providers to be listed. */
function differs({ nexiCount, systemCount, addedMs }) {
  return Math.abs(nexiCount - systemCount) >= 0.5 || Math.abs(addedMs) >= 0.1
}

/**
 * @param {{ shoppers: { nexi: any, system: any }, traceFile: string, control: any, checkouts: number, log: (line: string) => void }} run
 *   `shoppers`: lib/shopper.js shoppers whose store API sends `x-bench-trace: nexi` and `system`.
 */
async function measureSessionAnatomy({ shoppers, traceFile, control, checkouts, log }) {
  fs.rmSync(traceFile, { force: true })
  const checkout = { nexi: () => shoppers.nexi.cardCheckout(), system: () => shoppers.system.systemCheckout() }
  // Nothing of earlier parts may still be running in the store.
  await settle(control)
  log(`session anatomy: ${checkouts} traced checkouts of each provider, one at a time, without notifications`)
  await control.dropNotifications(checkouts)
  try {
    for (let index = 0; index < checkouts; index++) {
      for (const name of index % 2 === 0 ? ["nexi", "system"] : ["system", "nexi"]) await checkout[name]()
    }
  } finally {
    await control.clearNotificationFaults()
  }
  const traces = readTraces(traceFile)
  const overlapped = traces.filter((trace) => trace.overlapped).length
  if (overlapped)
    throw new Error(`${overlapped} traced requests overlapped another: the probe cannot tell their statements apart`)
  const steps = STEPS.map(([step]) => {
    const of = (label) => traces.filter((trace) => trace.label === label && stepOf(trace) === step)
    const row = { step, nexi: summarizeStep(of("nexi")), system: summarizeStep(of("system")) }
    if (DETAILED.includes(step))
      row.statements = statementsSideBySide(statementsByLabel(of("nexi")), statementsByLabel(of("system")))
    return row
  })
  return { checkouts, steps }
}

module.exports = { differs, measureSessionAnatomy }

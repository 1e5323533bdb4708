/** The bench's printout: one table per measurement, then the JSON line of every figure (the last line). */
const { differs } = require("../parts/session-anatomy")
const { table, yesNo } = require("./table")
const { addedMsPerCall, overheadTarget, TARGETS, throughputMet } = require("./targets")

const pair = (values) => (values ? `${values.p50} / ${values.p99 ?? values.p95}` : "-")

function overheadSection({ passes }) {
  return passes.map(({ latencyMs, rows }) =>
    [
      `Overhead, simulator latency ${latencyMs} ms (ms, p50 / p99; target: ${overheadTarget(latencyMs)})`,
      table(
        [
          "call",
          "rounds",
          "provider",
          "gateway client",
          "bare axios",
          "added (p50)",
          "per call",
          "median ratio",
          "p99 ratio",
          "met",
        ],
        rows.map((row) => [
          row.call,
          row.samples,
          pair(row.providerMs),
          pair(row.clientMs),
          pair(row.bareMs),
          row.addedMs,
          addedMsPerCall(row),
          row.medianRatio,
          row.p99Ratio,
          yesNo(row.met),
        ]),
      ),
    ].join("\n"),
  )
}

function roundTripSection({ checkouts, card, apm }) {
  const rows = []
  for (const [flow, result] of [
    ["card, initiate to captured", card],
    ["mobile payment (PSP_B)", apm],
  ]) {
    rows.push([flow, result.perCheckout, "", yesNo(result.met)])
    for (const [endpoint, count] of Object.entries(result.byEndpoint)) rows.push(["", count, endpoint, ""])
  }
  return [
    `Round trips: gateway requests per completed checkout, counted by the simulator (${checkouts} checkouts each; target: only the calls the flow needs)`,
    table(["flow", "per checkout", "endpoint", "met"], rows),
  ].join("\n")
}

function connectionSection(rows) {
  return [
    "Connections opened by the gateway client (target: no more than the pool size)",
    table(
      ["calls", "mode", "sockets opened", "pool size", "met"],
      rows.map((row) => [row.calls, row.mode, row.socketsOpened, row.poolSize, yesNo(row.met)]),
    ),
  ].join("\n")
}

function throughputSection(levels) {
  const p = (values) => `${values.p50} / ${values.p95}`
  const one = levels.find((level) => level.shoppers === 1)
  const step = (run, name) => run[`${name}Ms`]?.p50 ?? "-"
  return [
    `Throughput through the running store (checkouts/s; latencies ms, p50 / p95; baseline: Medusa's system provider, same store and region; target: ratio >= ${Object.entries(
      TARGETS.throughputRatio,
    )
      .map(([shoppers, ratio]) => `${ratio} at ${shoppers}`)
      .join(", ")})`,
    table(
      [
        "shoppers",
        "nexi/s",
        "system/s",
        "ratio",
        "nexi session",
        "nexi complete",
        "system session",
        "system complete",
        "errors (nexi, system)",
        "met",
      ],
      levels.map((level) => [
        level.shoppers,
        level.nexi.perSecond,
        level.system.perSecond,
        level.ratio,
        p(level.nexi.sessionMs),
        p(level.nexi.completeMs),
        p(level.system.sessionMs),
        p(level.system.completeMs),
        `${level.nexi.errors}, ${level.system.errors}`,
        yesNo(throughputMet(level.shoppers, level.ratio)),
      ]),
    ),
    ...(one
      ? [
          "One shopper's checkout step by step (ms, p50): at one shopper the rate is one over the sum",
          table(
            ["step", "nexi", "system"],
            [
              ["cart and payment collection", step(one.nexi, "cart"), step(one.system, "cart")],
              ["payment session", step(one.nexi, "session"), step(one.system, "session")],
              ["hosted payment page, notification delivered", step(one.nexi, "pay"), "-"],
              ["cart completion", step(one.nexi, "complete"), step(one.system, "complete")],
            ],
          ),
        ]
      : []),
  ].join("\n")
}

function anatomySection({ checkouts, steps }) {
  const blocks = [
    `One shopper's checkout, request by request, traced in the store (${checkouts} checkouts of each, alternating; ms, p50): statements are the database's round trips, the rest is node (Medusa, the plugin, the ORM)`,
    table(
      ["request", "provider", "whole", "statements", "in statements", "gateway", "the rest"],
      steps.flatMap(({ step, nexi, system }) =>
        [
          ["nexi", nexi],
          ["system", system],
        ].map(([name, run]) => [
          name === "nexi" ? step : "",
          name,
          run.wallMs,
          run.statements,
          run.statementMs,
          run.gatewayMs,
          run.restMs,
        ]),
      ),
    ),
  ]
  for (const { step, statements } of steps.filter((row) => row.statements)) {
    blocks.push(
      `Statements of the ${step} that differ (per request: how many, mean; ms, p50)`,
      table(
        ["statement", "nexi", "system", "nexi ms", "system ms", "added ms"],
        statements
          .filter(differs)
          .map((row) => [row.statement, row.nexiCount, row.systemCount, row.nexiMs, row.systemMs, row.addedMs]),
      ),
    )
  }
  return blocks.join("\n")
}

function memorySection({ withoutPlugin, withPlugin, growth }) {
  const figures = (memory) => `${memory.rssMiB} / ${memory.heapUsedMiB}`
  const lines = ["Memory of the Medusa server process after a full GC (MiB, RSS / heap in use)"]
  lines.push(
    table(
      ["store", "boot s", "idle", "after warm-up"],
      [
        [
          "without the plugin",
          withoutPlugin.bootMs / 1000,
          figures(withoutPlugin.idle),
          figures(withoutPlugin.afterWarmup),
        ],
        ["with the plugin", withPlugin.bootMs / 1000, figures(withPlugin.idle), figures(withPlugin.afterWarmup)],
      ],
    ),
  )
  if (growth?.error) lines.push(`Growth with the plugin: FAILED: ${growth.error}`)
  else if (growth) {
    lines.push(
      `Growth with the plugin (bounds: heap in use at most ${growth.bounds.heapMiB} MiB above the one after warm-up, grew ${growth.heapGrewMiB};` +
        ` RSS at most ${growth.bounds.rssMiB} MiB above the first sample, grew ${growth.rssGrewMiB}; met: ${yesNo(growth.met)})`,
      table(
        ["Nexi card checkouts", "RSS", "heap in use"],
        growth.samples.map((sample) => [sample.checkouts, sample.rssMiB, sample.heapUsedMiB]),
      ),
    )
  }
  return lines.join("\n")
}

function profileSection({ shoppers, checkouts, system, nexi, statementsAddedByNexi }) {
  const difference = (a, b) => Math.round((a - b) * 100) / 100
  const compared = (read, rows) =>
    rows.map((row) => {
      const [a, b] = [read(nexi, row) ?? 0, read(system, row) ?? 0]
      return [row, a, b, difference(a, b)]
    })
  const origins = [
    ...new Set([...Object.keys(nexi.byOriginCpuMsPerCheckout), ...Object.keys(system.byOriginCpuMsPerCheckout)]),
  ]
  const processes = Object.keys(nexi.byProcessCpuMsPerCheckout)
  const blocks = [
    `CPU per completed checkout, by process (${shoppers} shoppers, ${checkouts} checkouts of each in 2 alternating rounds, notifications' handling included; ms, from /proc)`,
    table(
      ["process", "nexi", "system", "added by nexi"],
      compared((run, name) => run.byProcessCpuMsPerCheckout[name], processes),
    ),
    "The store's CPU per checkout by where its code comes from (ms, /proc shared out by V8's CPU profile)",
    table(
      ["where", "nexi", "system", "added by nexi"],
      [
        ...compared((run, origin) => run.byOriginCpuMsPerCheckout[origin], origins),
        [
          "inside plugin frames (inclusive)",
          nexi.pluginInclusiveCpuMsPerCheckout,
          system.pluginInclusiveCpuMsPerCheckout,
          "",
        ],
      ],
    ),
    "The plugin's top functions by self time (Nexi checkouts; ms of CPU per checkout)",
    table(
      ["function", "self"],
      nexi.topPluginFunctions.map((entry) => [entry.function, entry.selfCpuMsPerCheckout]),
    ),
  ]
  if (nexi.database.unavailable) blocks.push(`Database statements: not counted: ${nexi.database.unavailable}`)
  else {
    blocks.push(
      `Database statements per checkout: nexi ${nexi.database.calls} (${nexi.database.execMs} ms executing), system ${system.database.calls} (${system.database.execMs} ms)`,
      table(
        ["statements a Nexi checkout runs more (+) or fewer (-) times than a system one", "per checkout"],
        statementsAddedByNexi.map((entry) => [entry.statement, entry.calls]),
      ),
    )
  }
  return blocks.join("\n")
}

const SECTIONS = {
  overhead: overheadSection,
  roundTrips: roundTripSection,
  connections: connectionSection,
  throughput: throughputSection,
  sessionAnatomy: anatomySection,
  memory: memorySection,
  profile: profileSection,
}

/** The tables for whatever parts ran (a part that failed shows its error), then the JSON line. */
function printReport(results, write = (text) => process.stdout.write(text)) {
  const blocks = []
  for (const [name, result] of Object.entries(results.figures)) {
    if (result?.error) blocks.push(`${name}: FAILED: ${result.error}`)
    else if (SECTIONS[name]) blocks.push([SECTIONS[name](result)].flat().join("\n\n"))
  }
  write(`\n${blocks.join("\n\n")}\n\n${JSON.stringify(results)}\n`)
}

module.exports = { printReport }

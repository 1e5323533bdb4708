#!/usr/bin/env node
/**
 * The figures of several bench runs as the README gives them: the median of the runs and
 * their spread (lowest–highest), so no figure comes from one lucky run.
 *
 *   node scripts/bench/index.js > run1.txt   (three times)
 *   node scripts/bench/runs-summary.js run1.txt run2.txt run3.txt
 *
 * Reads the JSON line each run ends with. Prints one table per measurement.
 */
const fs = require("node:fs")
const { table, yesNo } = require("./lib/table")
const { differs } = require("./parts/session-anatomy")
const {
  addedMsPerCall,
  OVERHEAD_TARGET_LATENCIES_MS,
  overheadMet,
  overheadTarget,
  TARGETS,
  throughputMet,
} = require("./lib/targets")

function lastJsonLine(file) {
  const lines = fs.readFileSync(file, "utf8").trim().split("\n")
  for (let index = lines.length - 1; index >= 0; index--) {
    if (lines[index].startsWith("{")) return JSON.parse(lines[index])
  }
  throw new Error(`${file}: no JSON line (is it the output of scripts/bench/index.js?)`)
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits

/** "median (low–high)" of one figure read from every run; "n/a" when a run lacks it. */
function spread(runs, read, digits = 3) {
  const values = runs.map((run) => {
    try {
      return read(run)
    } catch {
      return undefined
    }
  })
  if (values.some((value) => typeof value !== "number")) return "n/a"
  return `${round(median(values), digits)} (${round(Math.min(...values), digits)}–${round(Math.max(...values), digits)})`
}

/** One row per target and per call or level it applies to: the median of the runs, and whether it meets the target. */
function targetRows(runs) {
  const rows = []
  for (const pass of runs[0].figures.overhead?.passes ?? []) {
    if (!OVERHEAD_TARGET_LATENCIES_MS.includes(pass.latencyMs)) continue
    for (const { call } of pass.rows) {
      const rowOf = (run) =>
        run.figures.overhead.passes
          .find((candidate) => candidate.latencyMs === pass.latencyMs)
          .rows.find((candidate) => candidate.call === call)
      const middle = {
        call,
        addedMs: median(runs.map((run) => rowOf(run).addedMs)),
        medianRatio: median(runs.map((run) => rowOf(run).medianRatio)),
      }
      const shown = pass.latencyMs === 0 ? addedMsPerCall(middle) : middle.medianRatio
      rows.push([
        `${call}, ${pass.latencyMs} ms: ${overheadTarget(pass.latencyMs)}`,
        round(shown, 3),
        yesNo(overheadMet(pass.latencyMs, middle)),
      ])
    }
  }
  for (const level of runs[0].figures.throughput ?? []) {
    const ratio = median(
      runs.map((run) => run.figures.throughput.find((candidate) => candidate.shoppers === level.shoppers).ratio),
    )
    const met = throughputMet(level.shoppers, ratio)
    if (met === undefined) continue
    rows.push([
      `throughput ratio at ${level.shoppers}: >= ${TARGETS.throughputRatio[level.shoppers]}`,
      round(ratio, 3),
      yesNo(met),
    ])
  }
  if (runs.every((run) => run.figures.memory?.growth)) {
    const grew = median(runs.map((run) => run.figures.memory.growth.heapGrewMiB))
    rows.push([
      `heap growth after 1,000 checkouts: <= ${TARGETS.heapGrowthMiB} MiB`,
      grew,
      yesNo(grew <= TARGETS.heapGrowthMiB),
    ])
  }
  return rows
}

function main(files) {
  if (files.length === 0) throw new Error("usage: node scripts/bench/runs-summary.js run1.txt run2.txt run3.txt")
  const runs = files.map(lastJsonLine)
  const out = [`${runs.length} runs: ${runs.map((run) => run.startedAt).join(", ")}`]
  const throughput = runs[0].figures.throughput
  if (Array.isArray(throughput)) {
    out.push(
      "Throughput (median (lowest–highest))",
      table(
        [
          "shoppers",
          "nexi/s",
          "system/s",
          "ratio",
          "nexi session p50 ms",
          "system session p50 ms",
          "nexi complete p50 ms",
          "system complete p50 ms",
        ],
        throughput.map((_, index) => {
          const level = (run) => run.figures.throughput[index]
          return [
            throughput[index].shoppers,
            spread(runs, (run) => level(run).nexi.perSecond, 2),
            spread(runs, (run) => level(run).system.perSecond, 2),
            spread(runs, (run) => level(run).ratio),
            spread(runs, (run) => level(run).nexi.sessionMs.p50, 1),
            spread(runs, (run) => level(run).system.sessionMs.p50, 1),
            spread(runs, (run) => level(run).nexi.completeMs.p50, 1),
            spread(runs, (run) => level(run).system.completeMs.p50, 1),
          ]
        }),
      ),
    )
  }
  for (const pass of runs[0].figures.overhead?.passes ?? []) {
    const passOf = (run) => run.figures.overhead.passes.find((candidate) => candidate.latencyMs === pass.latencyMs)
    out.push(
      `Overhead at ${pass.latencyMs} ms (median (lowest–highest))`,
      table(
        ["call", "added p50 ms", "median ratio", "p99 ratio"],
        pass.rows.map((row) => {
          const rowOf = (run) => passOf(run).rows.find((candidate) => candidate.call === row.call)
          return [
            row.call,
            spread(runs, (run) => rowOf(run).addedMs),
            spread(runs, (run) => rowOf(run).medianRatio),
            spread(runs, (run) => rowOf(run).p99Ratio),
          ]
        }),
      ),
    )
  }
  const anatomy = runs[0].figures.sessionAnatomy
  if (Array.isArray(anatomy?.steps)) {
    const stepOf = (run, step) => run.figures.sessionAnatomy.steps.find((row) => row.step === step)
    const rows = anatomy.steps.flatMap(({ step }) =>
      ["nexi", "system"].map((side) => {
        const figure = (name) => spread(runs, (run) => stepOf(run, step)[side][name], 2)
        return [
          side === "nexi" ? step : "",
          side,
          figure("wallMs"),
          figure("statements"),
          figure("statementMs"),
          figure("gatewayMs"),
          figure("restMs"),
        ]
      }),
    )
    out.push(
      "One shopper's checkout, request by request, p50 ms (median (lowest–highest))",
      table(["request", "provider", "whole", "statements", "in statements", "gateway", "the rest"], rows),
    )
    for (const { step, statements } of anatomy.steps.filter((row) => row.statements)) {
      // A statement a run did not see at all ran 0 times there.
      const none = { nexiCount: 0, systemCount: 0, addedMs: 0 }
      const ofRun = (run, statement, name) =>
        (stepOf(run, step).statements.find((row) => row.statement === statement) ?? none)[name]
      const middle = (statement, name) => median(runs.map((run) => ofRun(run, statement, name)))
      const differing = statements.filter(({ statement }) =>
        differs({
          nexiCount: middle(statement, "nexiCount"),
          systemCount: middle(statement, "systemCount"),
          addedMs: middle(statement, "addedMs"),
        }),
      )
      out.push(
        `Statements of the ${step} that differ (count per request; added ms, p50) (median (lowest–highest))`,
        table(
          ["statement", "nexi", "system", "added ms"],
          differing.map(({ statement }) => [
            statement,
            spread(runs, (run) => ofRun(run, statement, "nexiCount"), 2),
            spread(runs, (run) => ofRun(run, statement, "systemCount"), 2),
            spread(runs, (run) => ofRun(run, statement, "addedMs"), 2),
          ]),
        ),
      )
    }
  }
  const profile = runs[0].figures.profile
  if (profile?.nexi?.byProcessCpuMsPerCheckout) {
    const ofRun = (run, side) => run.figures.profile[side]
    const added = (read) => (run) => read(ofRun(run, "nexi")) - read(ofRun(run, "system"))
    const row = (label, read, digits) => [
      label,
      spread(runs, (run) => read(ofRun(run, "nexi")), digits),
      spread(runs, (run) => read(ofRun(run, "system")), digits),
      spread(runs, added(read), digits),
    ]
    out.push(
      `CPU per checkout under the profiler (${profile.shoppers} shoppers), ms (median (lowest–highest))`,
      table(
        ["", "nexi", "system", "added by nexi"],
        [
          ...Object.keys(profile.nexi.byProcessCpuMsPerCheckout).map((process) =>
            row(process, (side) => side.byProcessCpuMsPerCheckout[process], 1),
          ),
          row("store: inside plugin frames", (side) => side.pluginInclusiveCpuMsPerCheckout, 2),
          row("database statements", (side) => side.database.calls, 1),
        ],
      ),
      `The store's CPU per checkout by where its code comes from, ms (median (lowest–highest))`,
      table(
        ["where", "nexi", "system", "added by nexi"],
        Object.keys(profile.nexi.byOriginCpuMsPerCheckout).map((origin) =>
          row(origin, (side) => side.byOriginCpuMsPerCheckout[origin] ?? 0, 2),
        ),
      ),
    )
  }
  out.push("Targets (issue 24), judged on the median of the runs", table(["target", "median", "met"], targetRows(runs)))
  process.stdout.write(`${out.join("\n\n")}\n`)
}

try {
  main(process.argv.slice(2))
} catch (error) {
  process.stderr.write(`${error.message}\n`)
  process.exitCode = 1
}

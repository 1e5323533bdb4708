#!/usr/bin/env node
/**
 * Runs each integration suite in its own jest process. Medusa keeps process-wide state between
 * app boots, so a second suite booting in the same process fails (module loaders refuse objects
 * of the previous boot); a process per suite avoids that.
 * One PostgreSQL serves every suite: the machine's (DB_HOST set) or one embedded for the run.
 * The suites run asynchronously: the embedded server writes its log through this process, and
 * a blocked event loop would fill that pipe and stall the database.
 *
 * Suites run two at a time by default (NEXI_TEST_JOBS, or --jobs=N): most of a suite's time is
 * spent waiting on its store, the simulator or a job's interval, so two share a 2-core machine
 * well. Each suite's output is printed whole when it ends, so two suites never interleave; with
 * one job it streams as it comes.
 *
 * Usage: node scripts/run-integration-tests.js [--jobs=N] [path filter ...]
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")
const { startEmbeddedPostgres } = require("./lib/embedded-postgres")

const root = path.resolve(__dirname, "..")

/**
 * The suites that take longest (1.5 to 3.5 minutes each on 2 cores), longest first, started
 * before the others so the run does not end with one long suite alone. A name that matches
 * nothing only loses its place in the order, never a suite.
 */
const LONG_SUITES = [
  "packaged/install",
  "faults/notification-storm",
  "production/",
  "http/payment-links",
  "faults/recorded-once",
  "http/card-notifications",
]

function jestProcess(file) {
  return spawn(
    process.execPath,
    [require.resolve("jest/bin/jest"), "--selectProjects", "integration", "--runInBand", "--forceExit", file],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "--experimental-vm-modules" },
    },
  )
}

/** At most this many of the store's error lines go into a failure report, each cut to this length. */
const STORE_ERRORS_SHOWN = 8
const STORE_ERROR_LENGTH = 600

/**
 * The part of a failed suite's output that says why: the store's error log lines, the first
 * of them (an answer of 500 is only explained there; the other JSON log lines are left out),
 * then jest's failure reports ("● test name" and the assertion after it). Printed again at the
 * end of the run, since a long suite's own output scrolls far above the run's last lines, and
 * CI keeps only the last few thousand characters of the run's output: the assertion comes last
 * so that it is among them, and the store's lines are cut short so that they do not push it out.
 */
function failureReport(text) {
  const lines = text.split("\n")
  const first = lines.findIndex((line) => /^\s+● /.test(line))
  const report = first === -1 ? lines.slice(-60) : lines.slice(first).filter((line) => !line.startsWith('{"level"'))
  const storeErrors = lines.filter((line) => line.startsWith('{"level":"error"'))
  const shownErrors = storeErrors.slice(0, STORE_ERRORS_SHOWN).map((line) => line.slice(0, STORE_ERROR_LENGTH))
  const errorsPart = storeErrors.length
    ? [`  the store logged ${storeErrors.length} error(s); the first ${shownErrors.length}:`, ...shownErrors]
    : []
  return [...errorsPart, ...report.slice(0, 80)].join("\n")
}

/** Runs one suite; resolves to its failure report, or undefined if it passed. Buffered output is printed once, whole. */
function runJest(file, streamed) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = jestProcess(file)
    const output = []
    const keep = (chunk) => {
      output.push(chunk)
      if (streamed) process.stdout.write(chunk)
    }
    child.stdout.on("data", keep)
    child.stderr.on("data", keep)
    child.on("close", (code) => {
      const seconds = Math.round((Date.now() - started) / 1000)
      const text = Buffer.concat(output).toString()
      if (!streamed) process.stdout.write(text)
      console.log(`[integration] ${code === 0 ? "passed" : "FAILED"} ${file} in ${seconds} s`)
      resolve(code === 0 ? undefined : failureReport(text))
    })
  })
}

function specFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : specFiles(full)
    return entry.name.endsWith(".spec.ts") ? [path.relative(root, full)] : []
  })
}

function longFirst(files) {
  const rank = (file) => {
    const index = LONG_SUITES.findIndex((name) => file.includes(name))
    return index === -1 ? LONG_SUITES.length : index
  }
  return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
}

function parseArguments(argv) {
  const jobsArgument = argv.find((argument) => argument.startsWith("--jobs="))
  const jobsText = jobsArgument ? jobsArgument.slice("--jobs=".length) : (process.env.NEXI_TEST_JOBS ?? "2")
  const jobs = Number(jobsText)
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new Error(`--jobs (or NEXI_TEST_JOBS) must be a whole number of at least 1, got "${jobsText}"`)
  }
  return { jobs, filters: argv.filter((argument) => !argument.startsWith("--jobs=")) }
}

/** Runs the files, `jobs` at a time; resolves to the failed files and their failure reports. */
async function runAll(files, jobs) {
  const queue = [...files]
  const failed = new Map()
  const streamed = jobs === 1 || files.length === 1
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      console.log(`[integration] started ${file}`)
      const report = await runJest(file, streamed)
      if (report !== undefined) failed.set(file, report)
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker))
  return failed
}

async function main() {
  const { jobs, filters } = parseArguments(process.argv.slice(2))
  const files = longFirst(
    specFiles(path.join(root, "integration-tests")).filter(
      (file) => !filters.length || filters.some((filter) => file.includes(filter)),
    ),
  )
  if (!files.length) throw new Error(`no integration suite matches ${filters.join(" ")}`)

  let database
  if (!process.env.DB_HOST) {
    database = await startEmbeddedPostgres({
      dataDir: path.join(root, ".cache", `embedded-postgres-test-${process.pid}`),
    })
    Object.assign(process.env, {
      DB_HOST: database.host,
      DB_PORT: String(database.port),
      DB_USERNAME: database.user,
      DB_PASSWORD: database.password,
    })
  }
  let failed
  try {
    failed = await runAll(files, jobs)
  } finally {
    await database?.stop()
  }
  for (const [file, report] of failed) console.log(`\n[integration] why ${file} failed:\n${report}`)
  console.log(`\nintegration: ${files.length - failed.size} passed, ${failed.size} failed`)
  for (const file of failed.keys()) console.log(`  failed: ${file}`)
  return failed.size ? 1 : 0
}

// An explicit exit: embedded-postgres installs an exit hook (async-exit-hook) that ends the
// process with code 0 whatever process.exitCode says, so a failed suite would pass CI.
main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)

#!/usr/bin/env node
/**
 * Runs each integration suite in its own jest process, one after the other. Medusa keeps
 * process-wide state between app boots, so a second suite booting in the same process fails
 * (module loaders refuse objects of the previous boot); a process per suite avoids that.
 * One PostgreSQL serves every suite: the machine's (DB_HOST set) or one embedded for the run.
 * The suites run asynchronously: the embedded server writes its log through this process, and
 * a blocked event loop would fill that pipe and stall the database.
 *
 * Usage: node scripts/run-integration-tests.js [path filter ...]
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")
const { startEmbeddedPostgres } = require("./lib/embedded-postgres")

const root = path.resolve(__dirname, "..")

function runJest(file) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [require.resolve("jest/bin/jest"), "--selectProjects", "integration", "--runInBand", "--forceExit", file],
      { cwd: root, stdio: "inherit", env: { ...process.env, NODE_OPTIONS: "--experimental-vm-modules" } },
    )
    child.on("exit", (code) => resolve(code === 0))
  })
}

function specFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : specFiles(full)
    return entry.name.endsWith(".spec.ts") ? [path.relative(root, full)] : []
  })
}

async function main() {
  const filters = process.argv.slice(2)
  const files = specFiles(path.join(root, "integration-tests"))
    .filter((file) => !filters.length || filters.some((filter) => file.includes(filter)))
    .sort()
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
  const failed = []
  try {
    for (const file of files) {
      if (!(await runJest(file))) failed.push(file)
    }
  } finally {
    await database?.stop()
  }
  console.log(`\nintegration: ${files.length - failed.length} passed, ${failed.length} failed`)
  for (const file of failed) console.log(`  failed: ${file}`)
  return failed.length ? 1 : 0
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

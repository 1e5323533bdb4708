/**
 * Brings the demo database to the schema of the installed Medusa and of the project's own
 * modules and links (`medusa db:migrate`). That command boots Medusa even when there is
 * nothing to do (about 20 s on a small machine), so a fingerprint of everything that can
 * change the schema is kept in the data directory: the same database, the same installed
 * packages (package-lock.json) and the same migration and link files skip it.
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { runMedusa } = require("./medusa-cli")
const { REPO_ROOT } = require("./settings")

const MARKER_FILE = "migrated.json"

/** The project's files that define tables: module migrations and module links. */
function schemaFiles(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : schemaFiles(full)
    const relative = path.relative(REPO_ROOT, full)
    return /(^|\/)(migrations|links)\//.test(relative) ? [relative] : []
  })
}

function schemaFingerprint(databaseIdentity) {
  const hash = crypto.createHash("sha256").update(databaseIdentity)
  const lockFile = path.join(REPO_ROOT, "package-lock.json")
  if (fs.existsSync(lockFile)) hash.update(fs.readFileSync(lockFile))
  for (const file of schemaFiles(path.join(REPO_ROOT, "src")).sort()) {
    hash.update(file).update(fs.readFileSync(path.join(REPO_ROOT, file)))
  }
  return hash.digest("hex")
}

/** Every directory under `dir`, node_modules left out. */
function directoriesUnder(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name === "node_modules") return []
    const full = path.join(dir, entry.name)
    return [full, ...directoriesUnder(full)]
  })
}

/**
 * Runs `task`, then removes the empty directories it left under `root` that were not there
 * before. `medusa db:migrate` runs every module provider's migrations too, and MikroORM's
 * migrator creates the folder it reads them from (`src/providers/nexi/migrations`, empty):
 * the demo must not write into the sources.
 * @template T
 * @param {string} root
 * @param {() => Promise<T>} task
 * @returns {Promise<T>}
 */
async function withoutNewEmptyDirectories(root, task) {
  const before = new Set(directoriesUnder(root))
  try {
    return await task()
  } finally {
    // Deepest first, so a new empty folder inside a new folder goes before its parent.
    const created = directoriesUnder(root)
      .filter((dir) => !before.has(dir))
      .sort((a, b) => b.length - a.length)
    for (const dir of created) {
      try {
        if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir)
      } catch {
        // Gone already, or not empty after all: left alone.
      }
    }
  }
}

/**
 * @param {{ env: NodeJS.ProcessEnv, dataDir: string, databaseIdentity: string, quiet?: boolean, signal?: AbortSignal }} options
 * @returns {Promise<{ ran: boolean }>}
 */
async function migrateDatabase({ env, dataDir, databaseIdentity, quiet = false, signal }) {
  const marker = path.join(dataDir, MARKER_FILE)
  const fingerprint = schemaFingerprint(databaseIdentity)
  const previous = fs.existsSync(marker) ? JSON.parse(fs.readFileSync(marker, "utf8")).fingerprint : undefined
  if (previous === fingerprint) return { ran: false }
  // Safe link changes only: the demo has no terminal to confirm destructive ones in (stdin is closed).
  await withoutNewEmptyDirectories(path.join(REPO_ROOT, "src"), () =>
    runMedusa(["db:migrate", "--execute-safe-links"], { env, quiet, signal }),
  )
  fs.writeFileSync(marker, `${JSON.stringify({ fingerprint, migratedAt: new Date().toISOString() }, null, 2)}\n`)
  return { ran: true }
}

module.exports = { migrateDatabase, withoutNewEmptyDirectories }

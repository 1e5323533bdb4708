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
  await runMedusa(["db:migrate", "--execute-safe-links"], { env, quiet, signal })
  fs.writeFileSync(marker, `${JSON.stringify({ fingerprint, migratedAt: new Date().toISOString() }, null, 2)}\n`)
  return { ran: true }
}

module.exports = { migrateDatabase }

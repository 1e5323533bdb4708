/**
 * Seeds the demo store, or finds the one a previous run seeded: runs seed-script.js inside
 * Medusa (`medusa exec`) and reads what it wrote. What it found is remembered in the data
 * directory (store.json), with the database it belongs to, so the next run can skip the seed
 * (a Medusa boot of its own) once the running store confirms it (store-check.js).
 */
const fs = require("node:fs")
const path = require("node:path")
const { runMedusa } = require("./medusa-cli")

const SEED_SCRIPT = path.join(__dirname, "seed-script.js")
const REMEMBERED_FILE = "store.json"

/**
 * @typedef {{ publishableKey: string, salesChannelId: string, adminUserExists: boolean,
 *   regions: Array<{ id: string, name: string, currency_code: string, countries: string[] }>,
 *   products: Array<{ id: string, handle: string, title: string }> }} SeededStore
 */

/**
 * @param {{ env: NodeJS.ProcessEnv, dataDir: string, adminEmail: string, shopper: { email: string, password: string },
 *   quiet?: boolean, signal?: AbortSignal }} options
 * @returns {Promise<SeededStore>}
 */
async function seedStore({ env, dataDir, adminEmail, shopper, quiet = false, signal }) {
  const resultFile = path.join(dataDir, "seed-result.json")
  fs.rmSync(resultFile, { force: true })
  // The password in the environment of the one command, not on its command line.
  await runMedusa(["exec", SEED_SCRIPT, resultFile, adminEmail, shopper.email], {
    env: { ...env, DEMO_SHOPPER_PASSWORD: shopper.password },
    quiet,
    name: "medusa seed",
    signal,
  })
  const store = JSON.parse(fs.readFileSync(resultFile, "utf8"))
  fs.rmSync(resultFile)
  return store
}

/** @param {SeededStore} store */
function rememberSeededStore(dataDir, databaseIdentity, store) {
  fs.writeFileSync(path.join(dataDir, REMEMBERED_FILE), `${JSON.stringify({ databaseIdentity, store }, null, 2)}\n`)
}

/** @returns {SeededStore | undefined} the store a previous run seeded in this database */
function seededStoreOfLastRun(dataDir, databaseIdentity) {
  const file = path.join(dataDir, REMEMBERED_FILE)
  if (!fs.existsSync(file)) return undefined
  const remembered = JSON.parse(fs.readFileSync(file, "utf8"))
  return remembered.databaseIdentity === databaseIdentity ? remembered.store : undefined
}

module.exports = { rememberSeededStore, seedStore, seededStoreOfLastRun }

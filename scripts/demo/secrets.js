/**
 * The demo's own secrets, generated on the first run and kept in the data directory (mode
 * 0600) so a second run can sign in with the same passwords and keep its sessions:
 * Medusa's JWT and cookie secrets, the admin's and the demo shopper's passwords, and the credentials the store and
 * the simulator share (the demo's own, so a real key in the shell or a .env file is never
 * sent to the simulator, nor the simulator's URL given a real key).
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")

const FILE_NAME = "secrets.json"

/**
 * Secrets a later version of the demo added: a data directory from before gets them generated
 * (its store has nothing that uses them yet). Any other one missing is a damaged file.
 */
const ADDED_LATER = ["shopperPassword"]

function randomSecret(bytes = 24) {
  return crypto.randomBytes(bytes).toString("base64url")
}

function generate() {
  return {
    jwtSecret: randomSecret(32),
    cookieSecret: randomSecret(32),
    adminPassword: randomSecret(12),
    shopperPassword: randomSecret(12),
    gatewayApiKey: crypto.randomUUID(),
    apmConsumerKey: `demo-${randomSecret(6)}`,
    apmConsumerSecret: randomSecret(),
  }
}

function save(file, secrets) {
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
}

/** @returns {{ jwtSecret: string, cookieSecret: string, adminPassword: string, shopperPassword: string, gatewayApiKey: string, apmConsumerKey: string, apmConsumerSecret: string }} */
function loadOrCreateSecrets(dataDir) {
  const file = path.join(dataDir, FILE_NAME)
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, "utf8"))
    const fresh = generate()
    const missing = Object.keys(fresh).filter((key) => typeof saved[key] !== "string" || !saved[key])
    const damaged = missing.filter((key) => !ADDED_LATER.includes(key))
    if (damaged.length)
      throw new Error(`${file}: ${damaged.join(", ")} missing; delete the data directory ${dataDir} to start afresh`)
    if (!missing.length) return saved
    const completed = { ...saved, ...Object.fromEntries(missing.map((key) => [key, fresh[key]])) }
    save(file, completed)
    return completed
  }
  const secrets = generate()
  fs.mkdirSync(dataDir, { recursive: true })
  save(file, secrets)
  return secrets
}

module.exports = { loadOrCreateSecrets }

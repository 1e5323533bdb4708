/**
 * The demo's own secrets, generated on the first run and kept in the data directory (mode
 * 0600) so a second run can sign in with the same admin password and keep its sessions:
 * Medusa's JWT and cookie secrets, the admin's password, and the credentials the store and
 * the simulator share (the demo's own, so a real key in the shell or a .env file is never
 * sent to the simulator, nor the simulator's URL given a real key).
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")

const FILE_NAME = "secrets.json"

function randomSecret(bytes = 24) {
  return crypto.randomBytes(bytes).toString("base64url")
}

function generate() {
  return {
    jwtSecret: randomSecret(32),
    cookieSecret: randomSecret(32),
    adminPassword: randomSecret(12),
    gatewayApiKey: crypto.randomUUID(),
    apmConsumerKey: `demo-${randomSecret(6)}`,
    apmConsumerSecret: randomSecret(),
  }
}

/** @returns {{ jwtSecret: string, cookieSecret: string, adminPassword: string, gatewayApiKey: string, apmConsumerKey: string, apmConsumerSecret: string }} */
function loadOrCreateSecrets(dataDir) {
  const file = path.join(dataDir, FILE_NAME)
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, "utf8"))
    const missing = Object.keys(generate()).filter((key) => typeof saved[key] !== "string" || !saved[key])
    if (missing.length) throw new Error(`${file}: ${missing.join(", ")} missing; delete the data directory ${dataDir} to start afresh`)
    return saved
  }
  const secrets = generate()
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
  return secrets
}

module.exports = { loadOrCreateSecrets }

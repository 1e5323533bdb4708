/**
 * Where the demo lives and which addresses it uses. Defaults match medusa-config.ts's own
 * (Medusa on 9000, the storefront on 8000, the simulator on 4010), so the provider's
 * resultUrl and cancelUrl land on the demo storefront without extra configuration.
 */
const path = require("node:path")

const REPO_ROOT = path.resolve(__dirname, "..", "..")

const DEFAULT_PORTS = Object.freeze({ medusa: 9000, storefront: 8000, simulator: 4010 })
const DEFAULT_DATA_DIR = path.join(REPO_ROOT, ".demo")

/** The store the demo seeds, its admin and its registered shopper, in one place for the seed and the docs. */
const DEMO_DATABASE_NAME = "medusa_nexi_demo"
const DEMO_ADMIN_EMAIL = "admin@nexi-demo.local"
const DEMO_SHOPPER_EMAIL = "shopper@nexi-demo.local"

/**
 * Browsers reach Medusa and the storefront through "localhost" (the admin's and CORS's
 * origin); the simulator binds 127.0.0.1 only (its control API refuses anything else).
 */
function urlsFor(ports) {
  const backend = `http://localhost:${ports.medusa}`
  const simulator = `http://127.0.0.1:${ports.simulator}`
  return {
    backend,
    admin: `${backend}/app`,
    storefront: `http://localhost:${ports.storefront}`,
    simulator,
    simulatorControl: `${simulator}/__sim`,
  }
}

module.exports = {
  DEFAULT_DATA_DIR,
  DEFAULT_PORTS,
  DEMO_ADMIN_EMAIL,
  DEMO_DATABASE_NAME,
  DEMO_SHOPPER_EMAIL,
  REPO_ROOT,
  urlsFor,
}

/**
 * The storefront kit (storefront/, the package medusa-payment-nexi-storefront) for the demo
 * storefront's page, which imports its plain functions as ES modules from /kit/ (no bundler):
 * compiled into storefront/dist, again only when a source is newer than the last compilation.
 */
const fs = require("node:fs")
const path = require("node:path")
const { runToEnd } = require("./child-process")
const { REPO_ROOT } = require("./settings")

const KIT_DIR = path.join(REPO_ROOT, "storefront")
const KIT_DIST = path.join(KIT_DIR, "dist")
const KIT_SOURCE = path.join(KIT_DIR, "src")

function newestChange(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    if (entry.name === "__tests__") return newest
    const full = path.join(dir, entry.name)
    return Math.max(newest, entry.isDirectory() ? newestChange(full) : fs.statSync(full).mtimeMs)
  }, 0)
}

/** Compiles the kit unless storefront/dist is newer than every source; answers whether it compiled. */
async function compileStorefrontKit({ quiet = true } = {}) {
  const compiled = path.join(KIT_DIST, "index.js")
  if (fs.existsSync(compiled) && fs.statSync(compiled).mtimeMs >= newestChange(KIT_SOURCE)) return false
  await runToEnd(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", KIT_DIR], {
    name: "tsc (storefront kit)",
    cwd: REPO_ROOT,
    quiet,
  })
  return true
}

module.exports = { compileStorefrontKit, KIT_DIST }

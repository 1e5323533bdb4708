/**
 * The starter-shaped storefront (browser-tests/starter-storefront): installed, built and started
 * for the browser tests. Installing and `next build` take a minute or two, so both are done
 * once and kept: the install is keyed by the app's lockfile and the kit's sources, the build by
 * those and the app's sources. Every suite of a run, and the next run if nothing changed,
 * reuses them. The kit comes in as a real store gets it: the tarball `npm pack` makes.
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { runToEnd, startChild, stopChild } = require("../../scripts/demo/child-process")
const { waitForHttp } = require("../../scripts/demo/wait-for-http")

const REPO_ROOT = path.resolve(__dirname, "..", "..")
const APP_DIR = path.join(REPO_ROOT, "browser-tests", "starter-storefront")
const KIT_DIR = path.join(REPO_ROOT, "storefront")
const KIT_TARBALL_DIR = path.join(APP_DIR, ".kit")
const INSTALL_MARK = path.join(APP_DIR, "node_modules", ".nexi-install-key")
const BUILD_MARK = path.join(APP_DIR, ".next", "nexi-build-key")
/** What neither the install nor the build reads: outputs, and the kit's tests. */
const NOT_SOURCES = new Set(["node_modules", ".next", ".kit", "next-env.d.ts", "dist", "__tests__"])

const nodeEnv = () => ({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" })

/** Without the storefront's NEXT_PUBLIC_ variables: a build that inlined them would serve one store only. */
function buildEnv() {
  const env = nodeEnv()
  for (const name of Object.keys(env)) if (name.startsWith("NEXT_PUBLIC_")) delete env[name]
  return env
}

function filesUnder(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !NOT_SOURCES.has(entry.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name)
      return entry.isDirectory() ? filesUnder(full) : [full]
    })
}

/** A hash of the files' paths and contents, in a stable order. */
function keyOf(files) {
  const hash = crypto.createHash("sha256")
  for (const file of [...files].sort()) {
    hash.update(path.relative(REPO_ROOT, file))
    hash.update(fs.readFileSync(file))
  }
  return hash.digest("hex")
}

const markSays = (mark, key) => fs.existsSync(mark) && fs.readFileSync(mark, "utf8") === key

/**
 * Installs the app's dependencies (`npm ci`, the kit from its freshly packed tarball) unless the
 * same lockfile and kit were installed already. The lockfile holds no checksum for the kit's
 * tarball, so a changed kit installs without touching it.
 */
async function installStarterStorefront({ quiet = true } = {}) {
  const kitFiles = filesUnder(KIT_DIR)
  const key = keyOf([...kitFiles, path.join(APP_DIR, "package.json"), path.join(APP_DIR, "package-lock.json")])
  if (markSays(INSTALL_MARK, key)) return false
  fs.rmSync(KIT_TARBALL_DIR, { recursive: true, force: true })
  fs.mkdirSync(KIT_TARBALL_DIR)
  await runToEnd("npm", ["pack", "--silent", "--pack-destination", KIT_TARBALL_DIR], {
    name: "npm pack (kit)",
    cwd: KIT_DIR,
    env: nodeEnv(),
    quiet,
  })
  await runToEnd("npm", ["ci", "--no-fund", "--no-audit"], {
    name: "npm ci (starter)",
    cwd: APP_DIR,
    env: nodeEnv(),
    quiet,
  })
  fs.writeFileSync(INSTALL_MARK, key)
  return true
}

/** `next build`, unless the build in .next was made from the same sources, lockfile and kit. */
async function buildStarterStorefront({ quiet = true } = {}) {
  const installed = await installStarterStorefront({ quiet })
  const key = keyOf([...filesUnder(APP_DIR), ...filesUnder(KIT_DIR)])
  if (!installed && markSays(BUILD_MARK, key)) return false
  await runToEnd(process.execPath, [require.resolve("next/dist/bin/next", { paths: [APP_DIR] }), "build"], {
    name: "next build",
    cwd: APP_DIR,
    env: buildEnv(),
    quiet,
  })
  fs.writeFileSync(BUILD_MARK, key)
  return true
}

/**
 * `next start` of the built app on `port`, talking to the store at `backendUrl` with its
 * publishable key, in the starters' NEXT_PUBLIC_ variables, read when the server starts (the
 * build had none to inline).
 * `env` adds the app's own server settings (NEXI_CARD_FIELDS, NEXI_SDK_INTEGRITY).
 * @param {{ port: number, backendUrl: string, publishableKey: string, defaultCountry?: string, env?: Record<string, string>, quiet?: boolean }} options
 */
async function startStarterStorefront({
  port,
  backendUrl,
  publishableKey,
  defaultCountry = "it",
  env = {},
  quiet = true,
}) {
  const next = require.resolve("next/dist/bin/next", { paths: [APP_DIR] })
  const handle = startChild(process.execPath, [next, "start", "--port", String(port), "--hostname", "localhost"], {
    name: "starter storefront",
    cwd: APP_DIR,
    env: {
      ...nodeEnv(),
      NODE_ENV: "production",
      NEXT_PUBLIC_MEDUSA_BACKEND_URL: backendUrl,
      NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY: publishableKey,
      NEXT_PUBLIC_DEFAULT_REGION: defaultCountry,
      ...env,
    },
    quiet,
  })
  const url = `http://localhost:${port}`
  try {
    await waitForHttp(`${url}/${defaultCountry}`, { handle, timeoutMs: 60_000 })
  } catch (error) {
    await stopChild(handle)
    throw error
  }
  return { url, stop: () => stopChild(handle) }
}

module.exports = { buildStarterStorefront, installStarterStorefront, startStarterStorefront }

/**
 * The browser tests' Next.js storefronts, installed, built and started: the starter-shaped one
 * (browser-tests/starter-storefront) and a plain Next.js app (browser-tests/plain-next-app).
 * Installing and `next build` take a minute or two, so both are done once and kept: the install
 * is keyed by the starter's lockfile and the kit's sources, a build by those and the app's
 * sources. Every suite of a run, and the next run if nothing changed, reuses them. The kit comes
 * in as a real store gets it: the tarball `npm pack` makes.
 *
 * The two apps have the same dependencies, so one install serves both: the plain app's
 * node_modules is a link to the starter's (its package.json must list the same, or the build
 * stops saying which differ).
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const path = require("node:path")
const { runToEnd, startChild, stopChild } = require("../../scripts/demo/child-process")
const { waitForHttp } = require("../../scripts/demo/wait-for-http")

const REPO_ROOT = path.resolve(__dirname, "..", "..")
const INSTALL_DIR = path.join(REPO_ROOT, "browser-tests", "starter-storefront")
const KIT_DIR = path.join(REPO_ROOT, "storefront")
const KIT_TARBALL_DIR = path.join(INSTALL_DIR, ".kit")
const INSTALL_MARK = path.join(INSTALL_DIR, "node_modules", ".nexi-install-key")
const INSTALL_INPUTS = [path.join(INSTALL_DIR, "package.json"), path.join(INSTALL_DIR, "package-lock.json")]
/** What neither the install nor the build reads: outputs, and the kit's tests. */
const NOT_SOURCES = new Set(["node_modules", ".next", ".kit", "next-env.d.ts", "dist", "__tests__"])

/**
 * Each app's folder, and the page `next start` answers once ready: the starter's middleware
 * sends every other path to a country's shop.
 */
const APPS = {
  starter: { dir: INSTALL_DIR, readyPath: (country) => `/${country}` },
  plain: { dir: path.join(REPO_ROOT, "browser-tests", "plain-next-app"), readyPath: () => "/" },
}

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
  const key = keyOf([...kitFiles, ...INSTALL_INPUTS])
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
    cwd: INSTALL_DIR,
    env: nodeEnv(),
    quiet,
  })
  fs.writeFileSync(INSTALL_MARK, key)
  return true
}

/** The plain app uses the starter's install: a link to it, once the two list the same dependencies. */
function linkSharedInstall(appDir) {
  const read = (dir) => JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"))
  const [installed, app] = [read(INSTALL_DIR), read(appDir)]
  const differing = ["dependencies", "devDependencies"].filter(
    (field) => JSON.stringify(installed[field]) !== JSON.stringify(app[field]),
  )
  if (differing.length) {
    throw new Error(
      `${path.relative(REPO_ROOT, appDir)}/package.json must list the ${differing.join(" and ")} of ` +
        `${path.relative(REPO_ROOT, INSTALL_DIR)}/package.json, whose install it shares`,
    )
  }
  const link = path.join(appDir, "node_modules")
  const target = path.relative(appDir, path.join(INSTALL_DIR, "node_modules"))
  if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() && fs.readlinkSync(link) === target) return
  fs.rmSync(link, { recursive: true, force: true })
  fs.symlinkSync(target, link)
}

/**
 * `next build` of the app ("starter" or "plain"), unless the build in its .next was made from
 * the same sources, install and kit.
 */
async function buildStorefront(app, { quiet = true } = {}) {
  const { dir } = APPS[app]
  const installed = await installStarterStorefront({ quiet })
  if (dir !== INSTALL_DIR) linkSharedInstall(dir)
  const key = keyOf(new Set([...filesUnder(dir), ...INSTALL_INPUTS, ...filesUnder(KIT_DIR)]))
  const buildMark = path.join(dir, ".next", "nexi-build-key")
  if (!installed && markSays(buildMark, key)) return false
  await runToEnd(process.execPath, [require.resolve("next/dist/bin/next", { paths: [dir] }), "build"], {
    name: `next build (${app})`,
    cwd: dir,
    env: buildEnv(),
    quiet,
  })
  fs.writeFileSync(buildMark, key)
  return true
}

/**
 * `next start` of the built app on `port`, talking to the store at `backendUrl` with its
 * publishable key, in the starters' NEXT_PUBLIC_ variables, read when the server starts (the
 * build had none to inline).
 * `env` adds the app's own server settings (the starter's NEXI_CARD_FIELDS, NEXI_SDK_INTEGRITY).
 * @param {"starter" | "plain"} app
 * @param {{ port: number, backendUrl: string, publishableKey: string, defaultCountry?: string, env?: Record<string, string>, quiet?: boolean }} options
 */
async function startStorefront(
  app,
  { port, backendUrl, publishableKey, defaultCountry = "it", env = {}, quiet = true },
) {
  const { dir, readyPath } = APPS[app]
  const next = require.resolve("next/dist/bin/next", { paths: [dir] })
  const handle = startChild(process.execPath, [next, "start", "--port", String(port), "--hostname", "localhost"], {
    name: `${app} storefront`,
    cwd: dir,
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
    await waitForHttp(`${url}${readyPath(defaultCountry)}`, { handle, timeoutMs: 60_000 })
  } catch (error) {
    await stopChild(handle)
    throw error
  }
  return { url, stop: () => stopChild(handle) }
}

/** Where an app's build is ("starter" or "plain"): its client bundle is read by a test. */
const buildDirOf = (app) => path.join(APPS[app].dir, ".next")

module.exports = { buildDirOf, buildStorefront, installStarterStorefront, startStorefront }

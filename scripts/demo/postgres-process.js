/**
 * Runs the demo's embedded PostgreSQL in a process of its own, started by database.js.
 * Apart from the demo's process, a Ctrl-C in the terminal does not reach it, so the demo can
 * stop Medusa before the database Medusa is using. It stops PostgreSQL on SIGTERM (from the
 * demo, or from orphan-guard.js if the demo died).
 *
 * argv[2]: JSON { dataDir, port?, postgresFlags? }. Sends { host, port, user, password, dataDir, createdAt } once
 * ready: where the files really are (scripts/lib/embedded-postgres.js may move them) and when
 * that cluster was created.
 */
const { startEmbeddedPostgres } = require("../lib/embedded-postgres")

async function main() {
  const { dataDir, port, postgresFlags } = JSON.parse(process.argv[2])
  const database = await startEmbeddedPostgres({
    dataDir,
    port,
    postgresFlags,
    persistent: true,
    log: (line) => process.stdout.write(line.endsWith("\n") ? line : `${line}\n`),
  })
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    database.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once("SIGTERM", stop)
  process.send({
    host: database.host,
    port: database.port,
    user: database.user,
    password: database.password,
    dataDir: database.dataDir,
    createdAt: database.createdAt,
  })
}

main().catch((error) => {
  process.stderr.write(`embedded PostgreSQL did not start: ${error?.message ?? error}\n`)
  process.exit(1)
})

/**
 * With DATABASE_URL set, the bench does not touch the database it names: it creates a fresh
 * one on the same server for the run and drops it afterwards, so every run starts from an
 * empty store and leaves nothing behind.
 */
function throwawayDatabaseUrl(serverUrl) {
  const url = new URL(serverUrl)
  url.pathname = `/medusa_nexi_bench_${Date.now()}_${process.pid}`
  return url.toString()
}

async function dropDatabase(url) {
  const { createClient, parseConnectionString } = require("@medusajs/framework/utils")
  const { database, host, port, user, password, ssl } = parseConnectionString(url)
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
    // FORCE: a connection Medusa left behind must not keep the database alive.
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
  } finally {
    await client.end().catch(() => {})
  }
}

module.exports = { dropDatabase, throwawayDatabaseUrl }

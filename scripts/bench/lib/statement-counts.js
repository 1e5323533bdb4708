/**
 * What the store asked of its database during a round: every statement PostgreSQL ran for the
 * bench's database, from `pg_stat_statements` (calls and execution time per normalised
 * statement). The bench's embedded PostgreSQL loads the extension (lib/bench-store.js); a
 * server given by DATABASE_URL may not, and the figures are then left out, not guessed.
 * The database server's CPU is not in the Medusa process's profile: this is where it shows.
 */
const { createClient, parseConnectionString } = require("@medusajs/framework/utils")

/** @param {string} databaseUrl the store's database */
async function statementCounter(databaseUrl) {
  const { database, host, port, user, password, ssl } = parseConnectionString(databaseUrl)
  const client = createClient({
    host,
    port: port ? Number(port) : undefined,
    user,
    password,
    database,
    ...(ssl ? { ssl } : {}),
  })
  await client.connect()
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await client.query("SELECT count(*) FROM pg_stat_statements")
  } catch (error) {
    await client.end().catch(() => {})
    return {
      available: false,
      why: `pg_stat_statements is not loaded (${error.message})`,
      reset: async () => {},
      read: async () => [],
      close: async () => {},
    }
  }
  const ownDatabase = "dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
  return {
    available: true,
    reset: async () => {
      await client.query("SELECT pg_stat_statements_reset()")
    },
    /** @returns {Promise<Array<{ query: string, calls: number, execMs: number }>>} */
    read: async () => {
      const { rows } = await client.query(
        `SELECT query, calls, total_exec_time FROM pg_stat_statements WHERE ${ownDatabase} AND query NOT LIKE '%pg_stat_statements%'`,
      )
      return rows.map((row) => ({ query: row.query, calls: Number(row.calls), execMs: Number(row.total_exec_time) }))
    },
    close: () => client.end().catch(() => {}),
  }
}

/** Several rounds' statements summed by statement. */
function mergeStatements(lists) {
  const byQuery = new Map()
  for (const entry of lists.flat()) {
    const sum = byQuery.get(entry.query) ?? { query: entry.query, calls: 0, execMs: 0 }
    sum.calls += entry.calls
    sum.execMs += entry.execMs
    byQuery.set(entry.query, sum)
  }
  return [...byQuery.values()]
}

/** Statements per completed checkout, in all. */
function statementsPerCheckout(statements, checkouts) {
  const per = (value) => Math.round((value / Math.max(checkouts, 1)) * 100) / 100
  return {
    calls: per(statements.reduce((sum, entry) => sum + entry.calls, 0)),
    execMs: per(statements.reduce((sum, entry) => sum + entry.execMs, 0)),
  }
}

/**
 * The statements one kind of checkout runs more (or fewer) times than the other, per checkout,
 * statement by statement: what the plugin asks of the database on top of Medusa's own.
 */
function statementDifference(more, moreCheckouts, fewer, fewerCheckouts) {
  const calls = new Map()
  for (const entry of more) calls.set(entry.query, entry.calls / Math.max(moreCheckouts, 1))
  for (const entry of fewer)
    calls.set(entry.query, (calls.get(entry.query) ?? 0) - entry.calls / Math.max(fewerCheckouts, 1))
  return [...calls]
    .map(([query, difference]) => ({
      statement: query.replace(/\s+/g, " ").slice(0, 150),
      calls: Math.round(difference * 100) / 100,
    }))
    .filter((entry) => Math.abs(entry.calls) >= 0.1)
    .sort((a, b) => b.calls - a.calls)
}

module.exports = { mergeStatements, statementCounter, statementDifference, statementsPerCheckout }

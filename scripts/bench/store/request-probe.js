/**
 * Preloaded into the bench's Medusa server (node -r): where the time of one request goes. While
 * a request carrying the header `x-bench-trace` (its value labels it) is in the server, every
 * database statement (the `pg` driver's Client#query, from the call to the answer, labelled by
 * verb and table) and every HTTP request the server sends (the gateway) is counted to it; once
 * it is answered, one JSON line goes to BENCH_TRACE_FILE.
 *
 * It counts what runs while the request is in the server, not what the request caused: node 20
 * follows a request through its asynchronous work only with async hooks, which add their own
 * work to every promise of the requests being timed. So traced requests
 * come one at a time with nothing else running (parts/session-anatomy.js sees to both), and a
 * traced request that arrives while another is in the server marks both `overlapped`. Requests
 * without the header run as before; without the variable nothing is wrapped.
 */
const fs = require("node:fs")
const http = require("node:http")
const path = require("node:path")
const { performance } = require("node:perf_hooks")

const HEADER = "x-bench-trace"

/** "SELECT cart", "INSERT nexi_payment_attempt", "BEGIN": the verb and the first table named. */
function statementLabel(sql) {
  const text = String(sql).replace(/"/g, "").replace(/\s+/g, " ").trim().replace(/;$/, "").toLowerCase()
  const table = "(?:\\w+\\.)?(\\w+)"
  const patterns = [
    ["INSERT", new RegExp(`^insert into ${table}`)],
    ["UPDATE", new RegExp(`^update ${table}`)],
    ["DELETE", new RegExp(`^delete from ${table}`)],
    ["SELECT", new RegExp(`^(?:with .*? )?select .*? from ${table}`)],
  ]
  for (const [verb, pattern] of patterns) {
    const match = pattern.exec(text)
    if (match) return `${verb} ${match[1]}`
  }
  return text.split(" ")[0].toUpperCase()
}

/** Every copy of the `pg` driver the store can load (MikroORM may bring its own). */
function driverPaths() {
  const from = (directory) => {
    try {
      return require.resolve("pg", { paths: [directory] })
    } catch {
      return undefined
    }
  }
  const roots = [process.cwd()]
  try {
    roots.push(path.dirname(require.resolve("@mikro-orm/postgresql/package.json", { paths: [process.cwd()] })))
  } catch {
    // No MikroORM of its own: the one driver is enough.
  }
  return [...new Set(roots.map(from).filter(Boolean))]
}

/** The traced request in the server, if any. */
let current

function traceStatements(Client) {
  const query = Client.prototype.query
  Client.prototype.query = function tracedQuery(...args) {
    const trace = current
    if (!trace) return query.apply(this, args)
    const started = performance.now()
    const [config] = args
    const label = statementLabel(typeof config === "string" ? config : config?.text)
    const done = () => trace.statements.push([label, performance.now() - started])
    const answer = args.at(-1)
    if (typeof answer === "function") {
      args[args.length - 1] = function answered(...results) {
        done()
        return answer.apply(this, results)
      }
      return query.apply(this, args)
    }
    const result = query.apply(this, args)
    if (typeof result?.then === "function") result.then(done, done)
    return result
  }
}

function traceOutgoing() {
  const request = http.request
  http.request = function tracedRequest(...args) {
    const trace = current
    const outgoing = request.apply(this, args)
    if (trace) {
      const started = performance.now()
      outgoing.once("close", () => trace.outgoing.push(performance.now() - started))
    }
    return outgoing
  }
}

function traceRequests(write) {
  const emit = http.Server.prototype.emit
  http.Server.prototype.emit = function tracedEmit(...args) {
    const [event, request, response] = args
    if (event === "request" && request.headers[HEADER]) {
      const trace = {
        label: request.headers[HEADER],
        method: request.method,
        path: request.url.split("?")[0],
        started: performance.now(),
        statements: [],
        outgoing: [],
      }
      if (current) current.overlapped = trace.overlapped = true
      current = trace
      response.once("finish", () => {
        if (current === trace) current = undefined
        write(trace)
      })
    }
    return emit.apply(this, args)
  }
}

const file = process.env.BENCH_TRACE_FILE
if (file) {
  const round = (ms) => Math.round(ms * 1000) / 1000
  const write = (trace) => {
    const line = {
      label: trace.label,
      method: trace.method,
      path: trace.path,
      wallMs: round(performance.now() - trace.started),
      statements: trace.statements.map(([label, ms]) => [label, round(ms)]),
      outgoingMs: trace.outgoing.map(round),
      ...(trace.overlapped ? { overlapped: true } : {}),
    }
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`)
  }
  for (const driver of driverPaths()) traceStatements(require(driver).Client)
  traceOutgoing()
  traceRequests(write)
}

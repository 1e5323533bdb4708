/**
 * What every process the demo starts needs: its output prefixed on ours (or kept quiet but
 * remembered, so a failure can show the last lines), a wait for its exit, and a stop that
 * reaches its whole process group (Medusa's admin dev server starts esbuild, PostgreSQL its
 * own workers).
 *
 * Children run in their own process group (`detached`): a Ctrl-C in the terminal then reaches
 * only the demo, which stops them in order (Medusa before the database it is using).
 */
const { fork, spawn } = require("node:child_process")
const path = require("node:path")

const TAIL_LINES = 40

let guard
/** Where every child's output also goes (the demo's log file), whatever `quiet` says; see logChildOutputTo. */
let logStream

/**
 * Copies every line any child prints from now on to `stream` (the demo's `demo.log`), prefixed
 * as on the terminal; null stops it. One demo per process writes a log, so it is kept here
 * rather than passed through every step.
 * @param {NodeJS.WritableStream | null} stream
 */
function logChildOutputTo(stream) {
  logStream = stream ?? undefined
}

/** The orphan guard of this process (orphan-guard.js), started with the first child. */
function orphanGuard() {
  if (!guard) {
    guard = fork(path.join(__dirname, "orphan-guard.js"), [], {
      detached: true,
      stdio: ["ignore", "ignore", "ignore", "ipc"],
    })
    // Neither the guard nor its channel may keep this process alive.
    guard.unref()
    guard.channel.unref()
    // A guard that died is no reason to fail the demo: it only matters if the demo dies too.
    guard.on("error", () => {})
  }
  return guard
}

function tellGuard(message) {
  const current = orphanGuard()
  if (current.connected) current.send(message)
}

/** Forwards a stream line by line with a prefix, keeping the last lines for error messages. */
function followOutput(stream, { prefix, quiet, tail, onLine }) {
  let partial = ""
  stream.setEncoding("utf8")
  stream.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n")
    partial = lines.pop()
    for (const line of lines) {
      tail.push(line)
      if (tail.length > TAIL_LINES) tail.shift()
      logStream?.write(`${prefix} ${line}\n`)
      if (!quiet) process.stdout.write(`${prefix} ${line}\n`)
      onLine?.(line)
    }
  })
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ name: string, cwd?: string, env?: NodeJS.ProcessEnv, quiet?: boolean, ipc?: boolean,
 *   onLine?: (line: string) => void, signal?: AbortSignal }} options
 *   `signal` stops the child when aborted (a Ctrl-C while the demo is still starting).
 */
function startChild(command, args, { name, cwd, env, quiet = false, ipc = false, onLine, signal }) {
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", ...(ipc ? ["ipc"] : [])],
  })
  const tail = []
  const prefix = `[${name}]`
  followOutput(child.stdout, { prefix, quiet, tail, onLine })
  followOutput(child.stderr, { prefix, quiet, tail, onLine })
  if (child.pid) tellGuard({ add: child.pid })
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      tellGuard({ remove: child.pid })
      resolve({ code, signal })
    })
    // A binary that cannot start (ENOENT) emits "error" and never "exit".
    child.on("error", (error) => resolve({ code: null, signal: null, error }))
  })
  const handle = {
    child,
    name,
    exited,
    /** The last lines it printed, for an error message that says why it failed. */
    recentOutput: () => tail.join("\n"),
  }
  if (signal) {
    const onAbort = () => stopChild(handle)
    signal.addEventListener("abort", onAbort, { once: true })
    exited.then(() => signal.removeEventListener("abort", onAbort))
    if (signal.aborted) onAbort()
  }
  return handle
}

function isRunning(handle) {
  return handle.child.exitCode === null && handle.child.signalCode === null
}

function signalGroup(handle, signal) {
  try {
    process.kill(-handle.child.pid, signal)
  } catch (error) {
    if (error.code !== "ESRCH") throw error
  }
}

/**
 * SIGTERM to the child, which shuts down what it started; SIGKILL to its whole group if it
 * has not exited after `graceMs`, and to whatever of the group outlived it.
 */
async function stopChild(handle, { graceMs = 20_000 } = {}) {
  if (!handle.child.pid) return
  if (isRunning(handle)) handle.child.kill("SIGTERM")
  let timer
  const outcome = await Promise.race([
    handle.exited.then(() => "exited"),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve("timeout"), graceMs)
    }),
  ])
  clearTimeout(timer)
  if (outcome === "timeout") {
    signalGroup(handle, "SIGKILL")
    await handle.exited
  }
  // The group leader may exit before its own children (esbuild, postgres workers).
  signalGroup(handle, "SIGKILL")
}

/** Runs a command to its end; rejects with its last output lines when it fails. */
async function runToEnd(command, args, options) {
  const handle = startChild(command, args, options)
  const { code, signal, error } = await handle.exited
  if (code !== 0) {
    const why = error ? error.message : signal ? `was killed by ${signal}` : `exited with code ${code}`
    throw new Error(`${options.name} ${why}:\n${handle.recentOutput()}`)
  }
  return handle.recentOutput()
}

module.exports = { logChildOutputTo, runToEnd, startChild, stopChild }

/**
 * A Medusa worker instance in its own process, started the way a store starts one:
 * `medusa start` in the store folder with MEDUSA_WORKER_MODE=worker. A second process is the
 * only way to have two instances: Medusa keeps process-wide state, so one process boots one
 * app. The worker still listens on a port, for /health only (Medusa registers no routes in
 * worker mode), which tells when it is ready. With `mode: "shared"` the process is a whole
 * store (routes, subscribers, jobs), which integration-tests/crash kills mid-call.
 */
import { type ChildProcess, spawn } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

export interface WorkerInstance {
  /** How many of the messages the worker logged so far contain `text` (JSON lines are read as their message). */
  count(text: string): number
  stop(): Promise<void>
  /** SIGKILL, as a deploy or the OOM killer stops a process: no `catch` or `finally` runs. */
  kill(): Promise<void>
}

const READY_TIMEOUT_MS = 240_000
const STOP_TIMEOUT_MS = 30_000

function messageOf(line: string): string {
  try {
    const parsed = JSON.parse(line) as { message?: unknown }
    return typeof parsed.message === "string" ? parsed.message : line
  } catch {
    return line
  }
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the worker instance exited with code ${child.exitCode}:\n${output()}`)
    const healthy = await fetch(url).then(
      (answer) => answer.ok,
      () => false,
    )
    if (healthy) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`the worker instance did not answer ${url} within ${READY_TIMEOUT_MS} ms:\n${output()}`)
}

/**
 * @param logFile where the worker's whole output is written, to read after a failed run
 * (the suite keeps only the last lines in its error messages).
 */
export async function startWorkerInstance(input: {
  storeDir: string
  port: number
  env: Record<string, string>
  logFile: string
  mode?: "worker" | "shared"
}): Promise<WorkerInstance> {
  const cli = path.join(path.dirname(require.resolve("@medusajs/cli/package.json")), "cli.js")
  const { NODE_OPTIONS: _jestFlags, ...inherited } = process.env
  const child = spawn(process.execPath, [cli, "start"], {
    cwd: input.storeDir,
    env: {
      ...inherited,
      NODE_ENV: "production",
      MEDUSA_WORKER_MODE: input.mode ?? "worker",
      PORT: String(input.port),
      ...input.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  fs.mkdirSync(path.dirname(input.logFile), { recursive: true })
  const log = fs.createWriteStream(input.logFile)
  const lines: string[] = []
  // One collector per stream, so a line cut between two chunks is not glued to the other stream's.
  const collector = () => {
    let partial = ""
    return (chunk: Buffer) => {
      log.write(chunk)
      const complete = (partial + chunk.toString("utf8")).split("\n")
      partial = complete.pop() ?? ""
      lines.push(...complete.filter((line) => line.trim()).map(messageOf))
    }
  }
  child.stdout!.on("data", collector())
  child.stderr!.on("data", collector())
  const exited = new Promise<void>((resolve) => child.once("exit", () => log.end(resolve)))
  const tail = () => lines.slice(-40).join("\n")

  try {
    await waitForHealth(`http://127.0.0.1:${input.port}/health`, child, tail)
  } catch (error) {
    child.kill("SIGKILL")
    throw error
  }

  return {
    count: (text) => lines.filter((line) => line.includes(text)).length,
    async stop() {
      if (child.exitCode !== null) return
      // SIGTERM lets Medusa close its queues and Redis connections; SIGKILL only if it hangs.
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS)
      await exited
      clearTimeout(timer)
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill("SIGKILL")
      await exited
    },
  }
}

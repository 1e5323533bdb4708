/** Starts simulator-child.js and hands back its URLs and a stop(). */
const { fork } = require("node:child_process")
const path = require("node:path")

/**
 * @param {{ latencyMs?: number }} [options]
 * @returns {Promise<{ url: string, gatewayUrl: string, apmUrl: string, controlUrl: string, pid: number, stop: () => Promise<void> }>}
 */
function startSimulatorProcess({ latencyMs = 0 } = {}) {
  const child = fork(path.join(__dirname, "simulator-child.js"), [], {
    env: { ...process.env, BENCH_SIM_LATENCY_MS: String(latencyMs) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  })
  const exited = new Promise((resolve) => child.once("exit", resolve))
  return new Promise((resolve, reject) => {
    child.once("error", reject)
    exited.then((code) => reject(new Error(`the simulator process exited (code ${code}) before it was ready`)))
    child.once("message", (urls) => {
      resolve({
        ...urls,
        pid: child.pid,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.send("stop")
          await exited
        },
      })
    })
  })
}

module.exports = { startSimulatorProcess }

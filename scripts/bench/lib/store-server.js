/**
 * A Medusa server of the bench store (store/medusa-config.js), with or without the plugin:
 * `medusa start` in that folder, NODE_ENV=production as a live store runs, started and
 * stopped with the demo's process helpers. The server runs in the process started here
 * (`medusa start` without --cluster does not fork), so its pid is the one to read RSS from.
 */
const path = require("node:path")
const { startChild, stopChild } = require("../../demo/child-process")
const { waitForHttp } = require("../../demo/wait-for-http")

const STORE_DIR = path.join(__dirname, "..", "store")
const MEMORY_PROBE = path.join(STORE_DIR, "memory-probe.js")
const CPU_PROBE = path.join(STORE_DIR, "cpu-probe.js")
const REQUEST_PROBE = path.join(STORE_DIR, "request-probe.js")
const MEDUSA_CLI = require.resolve("@medusajs/cli/cli.js", { paths: [STORE_DIR] })

/**
 * @param {{ env: NodeJS.ProcessEnv, port: number, withPlugin: boolean, memoryFile: string, cpuProfileFile: string, traceFile: string }} options
 *   `memoryFile`: where store/memory-probe.js writes the server's memory after a full GC;
 *   `cpuProfileFile`: where store/cpu-probe.js writes a CPU profile (lib/cpu-profile.js);
 *   `traceFile`: where store/request-probe.js writes the anatomy of each traced request.
 * @returns {Promise<{ url: string, pid: number, memoryFile: string, cpuProfileFile: string, traceFile: string, bootMs: number, stop: () => Promise<void> }>}
 */
async function startStoreServer({ env, port, withPlugin, memoryFile, cpuProfileFile, traceFile }) {
  const started = Date.now()
  const handle = startChild(process.execPath, [MEDUSA_CLI, "start", "--port", String(port)], {
    name: withPlugin ? "medusa (plugin)" : "medusa (no plugin)",
    cwd: STORE_DIR,
    env: {
      ...env,
      NODE_ENV: "production",
      BENCH_WITH_PLUGIN: String(withPlugin),
      BENCH_MEMORY_FILE: memoryFile,
      BENCH_CPU_PROFILE_FILE: cpuProfileFile,
      BENCH_TRACE_FILE: traceFile,
      NODE_OPTIONS:
        `${env.NODE_OPTIONS ?? ""} --expose-gc --require "${MEMORY_PROBE}" --require "${CPU_PROBE}" --require "${REQUEST_PROBE}"`.trim(),
    },
    quiet: true,
  })
  const url = `http://localhost:${port}`
  try {
    await waitForHttp(`${url}/health`, { handle, timeoutMs: 300_000 })
  } catch (error) {
    await stopChild(handle)
    throw error
  }
  return {
    url,
    pid: handle.child.pid,
    memoryFile,
    cpuProfileFile,
    traceFile,
    bootMs: Date.now() - started,
    stop: () => stopChild(handle, { graceMs: 30_000 }),
  }
}

module.exports = { startStoreServer }

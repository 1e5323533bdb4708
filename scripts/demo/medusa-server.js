/**
 * The Medusa server of the demo: `medusa start` from the repository root with
 * NODE_ENV=development, which is what `medusa develop` runs, minus its file watcher. The
 * watcher restarts the server on any file change in the repository (test screenshots, the
 * demo's own data, another developer's edits), which a demo and its browser tests cannot
 * have. No build is involved: `src/` loads through ts-node and the admin is served by vite.
 */
const { startMedusa } = require("./medusa-cli")
const { stopChild } = require("./child-process")
const { waitForHttp } = require("./wait-for-http")

/**
 * @param {{ env: NodeJS.ProcessEnv, port: number, quiet?: boolean, readyTimeoutMs?: number, signal?: AbortSignal }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function startMedusaServer({ env, port, quiet = false, readyTimeoutMs = 300_000, signal }) {
  const handle = startMedusa(["start", "--port", String(port)], { env, quiet, signal })
  const url = `http://localhost:${port}`
  try {
    await waitForHttp(`${url}/health`, { handle, timeoutMs: readyTimeoutMs })
  } catch (error) {
    await stopChild(handle)
    throw error
  }
  // Medusa shuts down gracefully on SIGTERM: open requests finish, then its modules close.
  return { url, stop: () => stopChild(handle, { graceMs: 30_000 }) }
}

module.exports = { startMedusaServer }

/** Waits until a server answers, failing early with its output when its process ends first. */

const POLL_MS = 500

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
    await response.arrayBuffer()
    return response.ok
  } catch {
    return false
  }
}

/**
 * @param {string} url answered with a 2xx once the server is ready
 * @param {{ handle: { name: string, exited: Promise<unknown>, recentOutput: () => string }, timeoutMs: number }} options
 */
async function waitForHttp(url, { handle, timeoutMs }) {
  let ended = false
  handle.exited.then(() => {
    ended = true
  })
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (ended) throw new Error(`${handle.name} stopped before ${url} answered:\n${handle.recentOutput()}`)
    if (await answers(url)) return
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${handle.recentOutput()}`)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

module.exports = { waitForHttp }

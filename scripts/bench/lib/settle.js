/**
 * Waits for Medusa to finish with the notifications it has received: it handles each one
 * about 5 seconds after it arrived (medusa-facts.md), and each handling reads the gateway
 * once. Done when no notification was delivered for the webhook delay plus a margin and the
 * simulator has recorded no new request for a while.
 */
const WEBHOOK_DELAY_MS = 5_000
const QUIET_MS = 1_500
const POLL_MS = 500

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function settle(control, { timeoutMs = 120_000 } = {}) {
  const deadline = Date.now() + timeoutMs
  const { notifications } = await control.notifications()
  const last = notifications.reduce((latest, record) => Math.max(latest, Date.parse(record.time)), 0)
  const wait = last + WEBHOOK_DELAY_MS + QUIET_MS - Date.now()
  if (wait > 0) await sleep(wait)
  let seen = (await control.requests()).requests.length
  let quietSince = Date.now()
  while (Date.now() - quietSince < QUIET_MS) {
    if (Date.now() > deadline) throw new Error(`the store was still calling the gateway after ${timeoutMs / 1000} s`)
    await sleep(POLL_MS)
    const now = (await control.requests()).requests.length
    if (now !== seen) {
      seen = now
      quietSince = Date.now()
    }
  }
  return seen
}

module.exports = { settle }

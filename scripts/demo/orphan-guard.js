/**
 * Stops the demo's children if the demo's own process dies without stopping them (SIGKILL, a
 * crash): they run in process groups of their own, so nothing else would. child-process.js
 * starts one guard per process and tells it which groups are running; when the demo's process
 * goes, the IPC channel closes and the guard stops the groups newest first (Medusa before the
 * database it uses), each with SIGTERM, then SIGKILL if it is still there after a grace period.
 *
 * Messages: { add: pgid } when a child starts, { remove: pgid } when it has exited.
 */
const GRACE_MS = 15_000
const POLL_MS = 200

const groups = new Set()

function alive(group) {
  try {
    process.kill(-group, 0)
    return true
  } catch {
    return false
  }
}

function signal(group, name) {
  try {
    process.kill(-group, name)
  } catch {
    // already gone
  }
}

async function stopGroup(group) {
  signal(group, "SIGTERM")
  const deadline = Date.now() + GRACE_MS
  while (alive(group) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  signal(group, "SIGKILL")
}

process.on("message", (message) => {
  if (message?.add) groups.add(message.add)
  if (message?.remove) groups.delete(message.remove)
})

process.on("disconnect", async () => {
  for (const group of [...groups].reverse()) await stopGroup(group)
  process.exit(0)
})

// Signals meant for the demo must not stop the guard before the demo is done with it.
process.on("SIGINT", () => {})
process.on("SIGTERM", () => {})

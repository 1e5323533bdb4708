/**
 * A process's memory: its resident set size from Linux's /proc (the bench runs on Linux,
 * like CI), and, for a bench store server, its heap after a full garbage collection, asked
 * of store/memory-probe.js with SIGUSR2.
 */
const fs = require("node:fs")

const toMiB = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10

/** RSS in MiB of process `pid`. */
function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return toMiB(Number(match[1]) * 1024)
}

/** RSS and heap in use (MiB) of a bench store server right after a full GC. */
async function memoryAfterGc({ pid, memoryFile }, { timeoutMs = 30_000 } = {}) {
  fs.rmSync(memoryFile, { force: true })
  process.kill(pid, "SIGUSR2")
  const deadline = Date.now() + timeoutMs
  while (!fs.existsSync(memoryFile)) {
    if (Date.now() > deadline)
      throw new Error(`the server (pid ${pid}) wrote no memory figures within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const usage = JSON.parse(fs.readFileSync(memoryFile, "utf8"))
  return { rssMiB: rssMiB(pid), heapUsedMiB: toMiB(usage.heapUsed), externalMiB: toMiB(usage.external) }
}

module.exports = { memoryAfterGc }

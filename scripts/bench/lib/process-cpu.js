/**
 * CPU time used by each process taking part in a round, read from /proc (user + system, all
 * threads): the Medusa server, the database server (every `postgres` process), the gateway
 * simulator and the bench's own shoppers, and the whole machine. On 2 cores they all share
 * the same CPUs, so a checkout's rate depends on all of them, not on the store's alone.
 */
const fs = require("node:fs")

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100
const ticksToMs = (ticks) => (ticks * 1000) / TICKS_PER_SECOND

function processCpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return ticksToMs(Number(fields[11]) + Number(fields[12]))
  } catch {
    // The process ended between the listing and the read: its time is gone with it.
    return 0
  }
}

function postgresCpuMs() {
  let total = 0
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += processCpuMs(entry)
    } catch {
      // Gone already.
    }
  }
  return total
}

/** Busy time of all CPUs together: everything but idle and I/O wait. */
function machineBusyMs() {
  const [, ...ticks] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/)
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number)
  return ticksToMs(user + nice + system + irq + softirq + steal)
}

function benchCpuMs() {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** @param {{ store: number, simulator: number }} pids */
function cpuSnapshot(pids) {
  return {
    store: processCpuMs(pids.store),
    database: postgresCpuMs(),
    simulator: processCpuMs(pids.simulator),
    shoppers: benchCpuMs(),
    machine: machineBusyMs(),
  }
}

/** What each used between two snapshots, in ms. */
function cpuUsedBetween(before, after) {
  return Object.fromEntries(Object.keys(before).map((key) => [key, after[key] - before[key]]))
}

module.exports = { cpuSnapshot, cpuUsedBetween }

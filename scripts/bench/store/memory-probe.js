/**
 * Preloaded into the bench's Medusa server (node -r, with --expose-gc): on SIGUSR2 it runs a
 * full garbage collection and writes process.memoryUsage() as JSON to BENCH_MEMORY_FILE. RSS
 * alone cannot tell retained memory from garbage V8 has not collected yet; the heap in use
 * after a full collection can. Nothing else in the server changes.
 */
const fs = require("node:fs")

const file = process.env.BENCH_MEMORY_FILE
if (file && typeof global.gc === "function") {
  process.on("SIGUSR2", () => {
    global.gc()
    const usage = process.memoryUsage()
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(usage))
    fs.renameSync(`${file}.tmp`, file)
  })
}

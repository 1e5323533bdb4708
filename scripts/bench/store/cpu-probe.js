/**
 * Preloaded into the bench's Medusa server (node -r): V8's sampling CPU profiler, the one
 * `node --cpu-prof` runs, switched on by SIGTTIN and off by SIGTTOU, which writes the profile
 * (.cpuprofile JSON, as --cpu-prof writes it) to BENCH_CPU_PROFILE_FILE. Unlike --cpu-prof,
 * which profiles from boot to exit, this profiles only the checkouts being measured. Nothing
 * else in the server changes; without the variable it does nothing.
 */
const fs = require("node:fs")
const inspector = require("node:inspector")

const file = process.env.BENCH_CPU_PROFILE_FILE
if (file) {
  const session = new inspector.Session()
  session.connect()
  let running = false
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    )
  process.on("SIGTTIN", async () => {
    if (running) return
    running = true
    await post("Profiler.enable")
    // 250 µs: fine enough to see a 0.2 ms cost per call in a few thousand calls.
    await post("Profiler.setSamplingInterval", { interval: 250 })
    await post("Profiler.start")
  })
  process.on("SIGTTOU", async () => {
    if (!running) return
    const { profile } = await post("Profiler.stop")
    running = false
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(profile))
    fs.renameSync(`${file}.tmp`, file)
  })
}

/**
 * Runs the gateway simulator in its own process, so its work never shares an event loop
 * with the client being measured (on loopback, as a real gateway would be across the wire).
 * Started by simulator-process.js; reports its URLs over IPC and stops on "stop" or SIGTERM.
 */
const { built } = require("./built")

async function main() {
  const { startSimulator } = built("simulator/index")
  const latencyMs = Number(process.env.BENCH_SIM_LATENCY_MS ?? "0")
  const simulator = await startSimulator({ port: 0, control: true, latencyMs })
  const stop = () => simulator.close().finally(() => process.exit(0))
  process.on("message", (message) => {
    if (message === "stop") stop()
  })
  process.once("SIGTERM", stop)
  // The bench went away without asking (a crash, a kill): nobody is left to stop us.
  process.once("disconnect", stop)
  process.send({
    url: simulator.url,
    gatewayUrl: simulator.gatewayUrl,
    apmUrl: simulator.apmUrl,
    controlUrl: simulator.controlUrl,
  })
}

main().catch((error) => {
  process.stderr.write(`bench simulator: ${error.stack ?? error}\n`)
  process.exit(1)
})

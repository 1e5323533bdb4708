#!/usr/bin/env node
/** nexi-simulator: runs the gateway simulator until SIGINT or SIGTERM. */
import { parseCliArguments, usage } from "./cli-args"
import { startSimulator } from "./simulator"

async function main(): Promise<void> {
  let command: ReturnType<typeof parseCliArguments>
  try {
    command = parseCliArguments(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage()}\n`)
    process.exitCode = 2
    return
  }
  if (command.kind === "help") {
    process.stdout.write(`${usage(command.options)}\n`)
    return
  }
  const logger = command.quiet ? undefined : (line: string) => process.stdout.write(`${line}\n`)
  const simulator = await startSimulator({ ...command.options, logger })
  process.stdout.write(
    [
      `Nexi gateway simulator listening on ${simulator.url}`,
      `  card gateway: ${simulator.gatewayUrl}`,
      `  APM service:  ${simulator.apmUrl}`,
      `  hosted pages: ${simulator.publicUrl}/hpp/...`,
      command.options.control
        ? `  control:      ${simulator.controlUrl}`
        : "  control:      off (start with --control)",
      "",
    ].join("\n"),
  )
  const stop = (signal: string) => {
    process.stdout.write(`${signal}: closing\n`)
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once("SIGINT", () => stop("SIGINT"))
  process.once("SIGTERM", () => stop("SIGTERM"))
}

main().catch((error: unknown) => {
  process.stderr.write(`nexi-simulator: ${(error as Error).message}\n`)
  process.exitCode = 1
})

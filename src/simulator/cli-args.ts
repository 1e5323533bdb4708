/** Command-line arguments of nexi-simulator, turned into startSimulator options. */
import { parseArgs } from "node:util"
import type { SimulatorOptions } from "./options"

export const USAGE = `Usage: nexi-simulator [--port 4010] [--host 127.0.0.1] [--public-url URL]
                     [--api-key KEY]... [--apm-consumer-key K] [--apm-consumer-secret S]
                     [--control] [--state FILE] [--quiet]`

export type CliCommand = { kind: "help" } | { kind: "start"; options: SimulatorOptions; quiet: boolean }

export function parseCliArguments(argv: string[]): CliCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "public-url": { type: "string" },
      "api-key": { type: "string", multiple: true },
      "apm-consumer-key": { type: "string" },
      "apm-consumer-secret": { type: "string" },
      control: { type: "boolean" },
      state: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  })
  if (values.help) return { kind: "help" }
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new Error(`--port must be a whole number from 0 to 65535 (got "${values.port}")`)
  }
  if (values["public-url"] !== undefined && !URL.canParse(values["public-url"])) {
    throw new Error(`--public-url must be an absolute URL (got "${values["public-url"]}")`)
  }
  return {
    kind: "start",
    quiet: values.quiet ?? false,
    options: {
      port,
      host: values.host,
      publicUrl: values["public-url"],
      apiKeys: values["api-key"],
      apmConsumerKey: values["apm-consumer-key"],
      apmConsumerSecret: values["apm-consumer-secret"],
      control: values.control ?? false,
      stateFile: values.state,
    },
  }
}

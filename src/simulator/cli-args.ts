/** Command-line arguments of nexi-simulator, turned into startSimulator options. */
import { parseArgs } from "node:util"
import { APM_BASE_PATH, DEFAULTS, GATEWAY_BASE_PATH, type SimulatorOptions } from "./options"

export const USAGE = `Usage: nexi-simulator [options]

Runs an offline Nexi XPay gateway (card API, hosted payment page, notifications) and the
alternative-payment (APM) service until Ctrl-C.

Options:
  --port N                 Port to listen on, 0 for a free one (default: ${DEFAULTS.port})
  --host HOST              Address to listen on (default: ${DEFAULTS.host})
  --public-url URL         Where browsers reach the simulator: hosted pages, phone page
                           (default: the listening address)
  --api-key KEY            An accepted X-API-KEY; repeat for several merchants
                           (default: ${DEFAULTS.apiKey})
  --apm-consumer-key K     The APM service's consumer key (default: ${DEFAULTS.apmConsumerKey})
  --apm-consumer-secret S  The APM service's consumer secret (default: ${DEFAULTS.apmConsumerSecret})
  --control                Enables the control API (/__sim: requests, faults), loopback only
                           (default: off)
  --state FILE             Keeps orders and payments in FILE across restarts
                           (default: none, in memory)
  --quiet                  No line per request (default: off)
  -h, --help               This text

With the defaults, a store's provider options are:
  apiKey:                  ${DEFAULTS.apiKey} (the public sandbox test key)
  environment:             http://${DEFAULTS.host}:${DEFAULTS.port}${GATEWAY_BASE_PATH}
  apm.consumerKey:         ${DEFAULTS.apmConsumerKey}
  apm.consumerSecret:      ${DEFAULTS.apmConsumerSecret}
  apm.merchantId:          any, e.g. sim-merchant
  apm.environment:         http://${DEFAULTS.host}:${DEFAULTS.port}${APM_BASE_PATH}`

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

/** Command-line arguments of nexi-simulator, turned into startSimulator options. */
import { parseArgs } from "node:util"
import { APM_BASE_PATH, DEFAULTS, GATEWAY_BASE_PATH, localBaseUrl, type SimulatorOptions } from "./options"

const FLAGS = `Usage: nexi-simulator [options]

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
  -h, --help               This text; with other options, the addresses they give`

/**
 * The help text, ending with what a store sets to reach a simulator started with `options` (the
 * other flags of a `--help` run), so `--port 9511 --help` shows the addresses on 9511.
 */
export function usage(options: SimulatorOptions = {}): string {
  const port = options.port ?? DEFAULTS.port
  // Port 0 is chosen when the simulator starts; it prints the address then.
  const url =
    port === 0 ? `http://${options.host ?? DEFAULTS.host}:<port>` : localBaseUrl(options.host ?? DEFAULTS.host, port)
  // Credentials given as flags are not echoed: help output ends up in logs and issue reports.
  const given = (value: string | undefined, flag: string, fallback: string) =>
    value === undefined ? fallback : `the ${flag} you gave`
  return `${FLAGS}

A store reaching it (started with the options given, else the defaults) has in its .env (README.md):
  NEXI_SIMULATOR_URL=${url}
    which gives the providers environment:  ${url}${GATEWAY_BASE_PATH}
                    and apm.environment:    ${url}${APM_BASE_PATH}
  NEXI_API_KEY=${given(options.apiKeys?.[0], "--api-key", `${DEFAULTS.apiKey} (the public sandbox test key)`)}
  NEXI_APM_CONSUMER_KEY=${given(options.apmConsumerKey, "--apm-consumer-key", DEFAULTS.apmConsumerKey)}
  NEXI_APM_CONSUMER_SECRET=${given(options.apmConsumerSecret, "--apm-consumer-secret", DEFAULTS.apmConsumerSecret)}
  NEXI_APM_MERCHANT_ID=any, e.g. sim-merchant`
}

export type CliCommand =
  | { kind: "help"; options: SimulatorOptions }
  | { kind: "start"; options: SimulatorOptions; quiet: boolean }

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
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new Error(`--port must be a whole number from 0 to 65535 (got "${values.port}")`)
  }
  if (values["public-url"] !== undefined && !URL.canParse(values["public-url"])) {
    throw new Error(`--public-url must be an absolute URL (got "${values["public-url"]}")`)
  }
  const options: SimulatorOptions = {
    port,
    host: values.host,
    publicUrl: values["public-url"],
    apiKeys: values["api-key"],
    apmConsumerKey: values["apm-consumer-key"],
    apmConsumerSecret: values["apm-consumer-secret"],
    control: values.control ?? false,
    stateFile: values.state,
  }
  if (values.help) return { kind: "help", options }
  return { kind: "start", quiet: values.quiet ?? false, options }
}

/**
 * nexi-doctor's command line: flags, then environment variables (the names the example
 * medusa-config reads), then the store's medusa-config. Turned into the provider options input.
 */
import { parseArgs } from "node:util"

type Flag = { flag: string; env: string; option: string; apm: boolean; help: string; fallback: string }

/**
 * Every option flag, its help and its default ("from the config" when left out). The environment
 * variable read when it is absent is NEXI_ and the flag upper-cased; an apm- flag sets the `apm`
 * options, under the camel-cased rest of its name.
 */
const OPTION_FLAGS: ReadonlyArray<[flag: string, help: string, fallback?: string]> = [
  ["api-key", "the gateway API key (never printed)"],
  ["environment", "sandbox, production or a base URL", "from the config, else sandbox"],
  ["notification-url", "the store backend's public base URL"],
  ["result-url", "storefront page after payment"],
  ["cancel-url", "storefront page after giving up"],
  ["capture-type", "EXPLICIT or IMPLICIT", "from the config, else EXPLICIT"],
  ["apm-consumer-key", "mobile payments: consumer key"],
  ["apm-consumer-secret", "mobile payments: consumer secret (never printed)"],
  ["apm-merchant-id", "mobile payments: merchant id"],
  ["apm-environment", "mobile payments: the service's base URL"],
]

export const FLAGS: readonly Flag[] = OPTION_FLAGS.map(([flag, help, fallback = "from the config"]) => ({
  flag,
  env: `NEXI_${flag.toUpperCase().replace(/-/g, "_")}`,
  option: flag.replace(/^apm-/, "").replace(/-(.)/g, (_, letter: string) => letter.toUpperCase()),
  apm: flag.startsWith("apm-"),
  help,
  fallback,
}))

const OTHER_FLAGS: ReadonlyArray<[string, string, string]> = [
  ["--config PATH", "the store's medusa-config.js or .ts", "./medusa-config.js, then ./medusa-config.ts, when present"],
  ["--no-config", "use flags and environment variables only", "off"],
  ["--entry ID", "which Nexi provider entry of the config (its id)", "the first Nexi entry"],
  [
    "--currency CODE",
    "a currency the store's regions sell in; repeatable (NEXI_CURRENCIES=EUR,USD)",
    "none: the currency check is skipped",
  ],
  ["--timeout-ms N", "per request", "10000"],
  ["--json", "print the report as JSON", "off"],
  ["--help, -h", "print this help", ""],
]

export const USAGE = [
  "Usage: nexi-doctor [options]",
  "",
  "Checks a Nexi provider configuration before going live; exits 1 when a blocking check fails.",
  "Each option falls back to its environment variable, then to the store's medusa-config.",
  "",
  ...FLAGS.map(
    (entry) => `  ${`--${entry.flag} VALUE`.padEnd(30)} ${entry.help}; env ${entry.env}; default: ${entry.fallback}`,
  ),
  ...OTHER_FLAGS.map(
    ([flag, help, fallback]) => `  ${flag.padEnd(30)} ${help}${fallback ? `; default: ${fallback}` : ""}`,
  ),
].join("\n")

export type DoctorCommand =
  | { kind: "help" }
  | {
      kind: "run"
      config: string | undefined
      noConfig: boolean
      entry: string | undefined
      /** Options given by flag or environment, over the config's. */
      overrides: Record<string, string>
      apmOverrides: Record<string, string>
      currencies: string[] | undefined
      timeoutMs: number
      json: boolean
    }

export function parseDoctorArguments(argv: string[], env: NodeJS.ProcessEnv): DoctorCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      ...Object.fromEntries(FLAGS.map((entry) => [entry.flag, { type: "string" as const }])),
      config: { type: "string" },
      "no-config": { type: "boolean" },
      entry: { type: "string" },
      currency: { type: "string", multiple: true },
      "timeout-ms": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  })
  if (values.help) return { kind: "help" }
  const overrides: Record<string, string> = {}
  const apmOverrides: Record<string, string> = {}
  for (const entry of FLAGS) {
    const value = ((values as Record<string, unknown>)[entry.flag] as string | undefined) ?? env[entry.env]
    if (value === undefined || value === "") continue
    if (entry.apm) apmOverrides[entry.option] = value
    else overrides[entry.option] = value
  }
  const listed = (values.currency as string[] | undefined) ?? env.NEXI_CURRENCIES?.split(",")
  const currencies = listed?.map((code) => code.trim()).filter((code) => code !== "")
  const timeoutText = values["timeout-ms"] as string | undefined
  const timeoutMs = timeoutText === undefined ? 10_000 : Number(timeoutText)
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new Error(`--timeout-ms must be a whole number above 0 (got "${timeoutText}")`)
  return {
    kind: "run",
    config: values.config as string | undefined,
    noConfig: (values["no-config"] as boolean | undefined) ?? false,
    entry: values.entry as string | undefined,
    overrides,
    apmOverrides,
    currencies: currencies && currencies.length > 0 ? currencies : undefined,
    timeoutMs,
    json: (values.json as boolean | undefined) ?? false,
  }
}

#!/usr/bin/env node
/**
 * nexi-doctor: checks a Nexi provider configuration before going live; exits 1 when a blocking
 * check fails. Each option comes from its flag, then its environment variable (the names the
 * example medusa-config reads), then the store's medusa-config. The CLI runs outside Medusa, so it
 * reads the entry from the store's medusa-config.js or .ts itself; a .ts config needs a TypeScript
 * loader: the store's ts-node (Medusa stores have it), else flags.
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { parseArgs } from "node:util"
import { clientsFor } from "../../core/clients"
import { parseNexiOptions } from "../../core/options"
import type { NexiDoctorResponse } from "../contract"
import { runDoctor } from "./run-doctor"

/**
 * Every option flag, its help and its default ("from the config" when left out). The environment
 * variable read when it is absent is the one README.md's `.env` and medusa-config.ts use for that
 * option: NEXI_ and the flag upper-cased, but for the backend's URL, which Medusa stores already
 * name MEDUSA_BACKEND_URL. An apm- flag sets the `apm` options, under the camel-cased rest of its name.
 */
const OPTION_FLAGS: ReadonlyArray<[flag: string, help: string, fallback?: string, env?: string]> = [
  ["api-key", "the gateway API key (never printed)"],
  ["environment", "sandbox, production or a base URL", "from the config, else sandbox"],
  ["notification-url", "the store backend's public base URL", "from the config", "MEDUSA_BACKEND_URL"],
  ["result-url", "storefront page after payment"],
  ["cancel-url", "storefront page after giving up"],
  ["capture-type", "EXPLICIT or IMPLICIT", "from the config, else EXPLICIT"],
  ["wallets", "the wallets to offer, comma-separated: GOOGLEPAY,APPLEPAY", "from the config, else none"],
  ["apm-consumer-key", "mobile payments: consumer key"],
  ["apm-consumer-secret", "mobile payments: consumer secret (never printed)"],
  ["apm-merchant-id", "mobile payments: merchant id"],
  ["apm-environment", "mobile payments: the service's base URL"],
]

export const FLAGS = OPTION_FLAGS.map(([flag, help, fallback = "from the config", env]) => ({
  flag,
  env: env ?? `NEXI_${flag.toUpperCase().replace(/-/g, "_")}`,
  option: flag.replace(/^apm-/, "").replace(/-(.)/g, (_, letter: string) => letter.toUpperCase()),
  apm: flag.startsWith("apm-"),
  /** An option that is a list: the flag's value, split at its commas. */
  list: flag === "wallets",
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

const USAGE = [
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

type RunCommand = {
  kind: "run"
  config: string | undefined
  noConfig: boolean
  entry: string | undefined
  /** Options given by flag or environment, over the config's. */
  overrides: Record<string, string | string[]>
  apmOverrides: Record<string, string>
  currencies: string[] | undefined
  timeoutMs: number
  json: boolean
}

function parseDoctorArguments(argv: string[], env: NodeJS.ProcessEnv): { kind: "help" } | RunCommand {
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
  const overrides: Record<string, string | string[]> = {}
  const apmOverrides: Record<string, string> = {}
  for (const entry of FLAGS) {
    const value = ((values as Record<string, unknown>)[entry.flag] as string | undefined) ?? env[entry.env]
    if (value === undefined || value === "") continue
    if (entry.apm) apmOverrides[entry.option] = value
    else overrides[entry.option] = entry.list ? value.split(",").map((item) => item.trim()) : value
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

/**
 * The provider options to check: the config entry's, with flags and environment over them.
 * `missingConfig` says where no config was found when one was looked for.
 */
function doctorOptionsInput(
  command: RunCommand,
  cwd: string,
): { input: Record<string, unknown>; source: string; missingConfig?: string } {
  const file = command.noConfig ? undefined : configPathOf(command.config, cwd)
  const fromConfig = file ? nexiEntryOptions(file, command.entry) : {}
  // An interactive check answers in seconds: one attempt per request.
  const oneAttempt = { timeoutMs: command.timeoutMs, retries: 0 }
  const input: Record<string, unknown> = { ...fromConfig, ...command.overrides, ...oneAttempt }
  const configApm = fromConfig.apm as Record<string, unknown> | undefined
  if (configApm || Object.keys(command.apmOverrides).length > 0) {
    input.apm = { ...(configApm ?? {}), ...command.apmOverrides, ...oneAttempt }
  }
  return {
    input,
    source: file ? `${file}${command.entry ? ` (entry ${command.entry})` : ""}` : "flags and environment variables",
    missingConfig:
      file || command.noConfig
        ? undefined
        : `no medusa-config.js or medusa-config.ts in ${cwd}: run it in the store's folder, name the file with --config PATH, or give the options as flags with --no-config (see --help)`,
  }
}

type ProviderEntry = { resolve?: unknown; id?: unknown; options?: unknown }
type ModuleEntry = { resolve?: unknown; options?: { providers?: unknown } }

const NEXI_RESOLVE = /providers\/nexi|medusa-payment-nexi/

/** The config file to read: the one named, else ./medusa-config.js, else ./medusa-config.ts, else none. */
function configPathOf(named: string | undefined, cwd: string): string | undefined {
  if (named !== undefined) {
    const full = path.resolve(cwd, named)
    if (!fs.existsSync(full)) throw new Error(`--config ${named}: no such file`)
    return full
  }
  return ["medusa-config.js", "medusa-config.ts"]
    .map((name) => path.join(cwd, name))
    .find((full) => fs.existsSync(full))
}

function registerTypeScript(file: string): void {
  const requireFromStore = createRequire(file)
  let tsNode: { register(options: object): unknown }
  try {
    tsNode = requireFromStore("ts-node")
  } catch {
    throw new Error(
      `${file} is TypeScript and ts-node is not installed in the store; install it, or pass the options as flags (--no-config, see --help)`,
    )
  }
  tsNode.register({ transpileOnly: true, compilerOptions: { module: "commonjs", moduleResolution: "node" } })
}

function nexiEntriesOf(config: { modules?: unknown }): ProviderEntry[] {
  const modules = (
    Array.isArray(config.modules) ? config.modules : Object.values(config.modules ?? {})
  ) as ModuleEntry[]
  return modules.flatMap((module) => {
    const providers = module && typeof module === "object" ? module.options?.providers : undefined
    return Array.isArray(providers)
      ? (providers as ProviderEntry[]).filter((entry) => NEXI_RESOLVE.test(String(entry?.resolve)))
      : []
  })
}

/** The options of the entry `entryId` (else the first Nexi entry) of the config at `file`. */
function nexiEntryOptions(file: string, entryId: string | undefined): Record<string, unknown> {
  if (file.endsWith(".ts")) registerTypeScript(file)
  const loaded = createRequire(file)(file) as { default?: unknown }
  const config = (loaded?.default ?? loaded) as { modules?: unknown }
  const entries = nexiEntriesOf(config)
  const entry = entryId === undefined ? entries[0] : entries.find((candidate) => candidate.id === entryId)
  if (!entry) {
    const ids = entries.map((candidate) => String(candidate.id ?? "(no id)")).join(", ")
    throw new Error(
      entryId === undefined
        ? `${file} lists no Nexi payment provider (resolve medusa-payment-nexi/providers/nexi)`
        : `${file} has no Nexi entry with id "${entryId}" (entries: ${ids || "none"})`,
    )
  }
  return { ...((entry.options as Record<string, unknown> | undefined) ?? {}) }
}

const LABELS = { pass: "PASS", fail: "FAIL", warn: "WARN" } as const

/** The text output: one line per check (PASS/FAIL/WARN, detail, fix), then the verdict. */
function formatReport(report: NexiDoctorResponse): string {
  const lines = report.checks.map(
    (check) => `${LABELS[check.status]}  ${check.title}: ${check.detail}${check.fix ? ` Fix: ${check.fix}` : ""}`,
  )
  lines.push(report.blocking ? "Not ready to go live: fix the failed checks above." : "No blocking problem found.")
  return lines.join("\n")
}

async function main(): Promise<void> {
  let command: ReturnType<typeof parseDoctorArguments>
  try {
    command = parseDoctorArguments(process.argv.slice(2), process.env)
  } catch (error) {
    process.stderr.write(`nexi-doctor: ${(error as Error).message}\n${USAGE}\n`)
    process.exitCode = 2
    return
  }
  if (command.kind === "help") {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const { input, source, missingConfig } = doctorOptionsInput(command, process.cwd())
  let options: ReturnType<typeof parseNexiOptions>
  try {
    options = parseNexiOptions(input)
  } catch (error) {
    process.exitCode = 1
    // Outside a store's folder with nothing given, the missing config is the whole story.
    if (missingConfig) process.stderr.write(`nexi-doctor: ${missingConfig}\n`)
    if (missingConfig && Object.keys(command.overrides).length + Object.keys(command.apmOverrides).length === 0) return
    // The message names the options by path, never their values.
    process.stdout.write(`FAIL  Options (${source}): ${(error as Error).message}\n`)
    return
  }
  const report = await runDoctor({ options, clients: clientsFor(options), currencies: command.currencies })
  if (command.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  else process.stdout.write(`Nexi doctor: options from ${source}\n${formatReport(report)}\n`)
  process.exitCode = report.blocking ? 1 : 0
}

// Run only as the command, not when a test imports FLAGS.
if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`nexi-doctor: ${(error as Error).message}\n`)
    process.exitCode = 1
  })
}

/**
 * The provider options nexi-doctor checks: the config entry's, with flags and environment over
 * them. The CLI runs outside Medusa, so it reads the entry from the store's medusa-config.js or
 * .ts itself; a .ts config needs a TypeScript loader: the store's ts-node (Medusa stores have
 * it), else flags.
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import type { DoctorCommand } from "./cli-args"

type RunCommand = Extract<DoctorCommand, { kind: "run" }>

export function doctorOptionsInput(
  command: RunCommand,
  cwd: string,
): { input: Record<string, unknown>; source: string } {
  const file = command.noConfig ? undefined : configPathOf(command.config, cwd)
  const fromConfig = file ? nexiEntryOptions(file, command.entry) : {}
  const input: Record<string, unknown> = { ...fromConfig, ...command.overrides }
  const configApm = fromConfig.apm as Record<string, unknown> | undefined
  if (configApm || Object.keys(command.apmOverrides).length > 0) {
    input.apm = { ...(configApm ?? {}), ...command.apmOverrides, timeoutMs: command.timeoutMs, retries: 0 }
  }
  // An interactive check answers in seconds: one attempt per request.
  input.timeoutMs = command.timeoutMs
  input.retries = 0
  return {
    input,
    source: file ? `${file}${command.entry ? ` (entry ${command.entry})` : ""}` : "flags and environment variables",
  }
}

type ProviderEntry = { resolve?: unknown; id?: unknown; options?: unknown }
type ModuleEntry = { resolve?: unknown; options?: { providers?: unknown } }

const NEXI_RESOLVE = /providers\/nexi|medusa-payment-nexi/

/** The config file to read: the one named, else ./medusa-config.js, else ./medusa-config.ts, else none. */
export function configPathOf(named: string | undefined, cwd: string): string | undefined {
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
export function nexiEntryOptions(file: string, entryId: string | undefined): Record<string, unknown> {
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

/**
 * Reads a Nexi provider entry's options from a store's medusa-config.js or .ts, as the CLI runs
 * outside Medusa. A .ts config needs a TypeScript loader: the store's ts-node (Medusa stores have
 * it), else flags.
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"

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

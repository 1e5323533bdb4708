/**
 * The store configuration the integration suites boot (medusa-config.ts at the repository
 * root), read the way Medusa reads it, for suites that need the Nexi provider's options.
 */
import path from "node:path"

type ProviderEntry = { resolve?: unknown; options?: Record<string, any> }

/** The Nexi provider's options in the store configuration the suites boot. */
export function nexiProviderOptions(): Record<string, any> {
  const config = require(path.join(__dirname, "..", "..", "medusa-config.ts"))
  const modules: Array<{ options?: { providers?: ProviderEntry[] } }> = Array.isArray(config.modules)
    ? config.modules
    : Object.values(config.modules ?? {})
  for (const module of modules) {
    const provider = module?.options?.providers?.find((entry) => String(entry.resolve).includes("providers/nexi"))
    if (provider?.options) return provider.options
  }
  throw new Error("medusa-config.ts has no Nexi payment provider (resolve ...providers/nexi)")
}

/**
 * The options of the store's Nexi provider entry, for routes: the providers live in the
 * payment module's own container, out of a route's reach, but their options are in the
 * store's configuration, which every container holds.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { type NexiOptions, NexiOptionsSchema } from "../../providers/nexi/options"
import { storeEntryIdOf } from "../../providers/nexi/shared/provider-ids"

type ProviderEntry = { id?: string; options?: unknown }

/**
 * One parsed object per configured entry, for the life of the process: callers key caches on
 * it (the admin routes keep one gateway client, and its kept-alive sockets, per options object).
 */
const parsedOptions = new WeakMap<object, NexiOptions>()

export function nexiOptionsOf(container: MedusaContainer, providerId: string): NexiOptions | undefined {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as {
    modules?: Record<string, unknown>
  }
  const paymentModule = config.modules?.[Modules.PAYMENT] as { options?: { providers?: ProviderEntry[] } } | undefined
  const entry = paymentModule?.options?.providers?.find((candidate) => candidate.id === storeEntryIdOf(providerId))
  const raw = entry?.options
  const known = raw && typeof raw === "object" ? parsedOptions.get(raw) : undefined
  if (known) return known
  // The providers validated these options when the store booted; a mismatch means another entry.
  const parsed = NexiOptionsSchema.safeParse(raw)
  if (!parsed.success) return undefined
  if (raw && typeof raw === "object") parsedOptions.set(raw, parsed.data)
  return parsed.data
}

/**
 * The store's Nexi provider entries as medusa-config gives them, for the code outside the
 * payment module (routes, admin use cases): the providers live in the payment module's own
 * container, out of reach, but their options are in the store's configuration, which every
 * container holds. Parsed once per entry (options.ts), so the clients are the providers' own.
 */
import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { ApmClient } from "../apm/apm-client"
import type { GatewayClient } from "../gateway/gateway-client"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../modules/nexi-ledger/types"
import { apmMethodOfProvider } from "./apm-schemes"
import { clientsFor } from "./clients"
import { type NexiOptions, parseNexiOptions } from "./options"
import { isNexiProviderId, storeEntryIdOf } from "./provider-ids"

type ProviderEntry = { id?: unknown; options?: unknown }

/** The payment module's provider entries in the store's configuration (medusa-config), as given. */
export function paymentProviderEntries(config: unknown): ProviderEntry[] {
  const modules = (config as { modules?: Record<string, unknown> } | undefined)?.modules
  const payment = modules?.[Modules.PAYMENT]
  const providers =
    typeof payment === "object" ? (payment as { options?: { providers?: unknown } }).options?.providers : undefined
  return Array.isArray(providers) ? providers.filter((entry): entry is ProviderEntry => typeof entry === "object") : []
}

export function nexiOptionsOf(container: MedusaContainer, providerId: string): NexiOptions | undefined {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const entry = paymentProviderEntries(config).find((candidate) => candidate.id === storeEntryIdOf(providerId))
  if (!entry) return undefined
  try {
    return parseNexiOptions(entry.options)
  } catch {
    // The providers validated these options when the store booted; a failure means another entry.
    return undefined
  }
}

/** The options of the store entry behind `providerId`, or a message saying what to configure. */
export function requireNexiOptions(container: MedusaContainer, providerId: string): NexiOptions {
  const options = nexiOptionsOf(container, providerId)
  if (!options) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The Nexi provider ${providerId} has no valid options in medusa-config (payment module providers).`,
    )
  }
  return options
}

/** The card provider of a Nexi store entry (not one of its mobile payment schemes). */
export function isNexiCardProviderId(providerId: unknown): providerId is string {
  return isNexiProviderId(providerId) && !apmMethodOfProvider(providerId)
}

export function loggerOf(container: MedusaContainer): Logger | undefined {
  return container.hasRegistration(ContainerRegistrationKeys.LOGGER)
    ? container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    : undefined
}

export function gatewayClientFor(container: MedusaContainer, providerId: string): GatewayClient {
  return clientsFor(requireNexiOptions(container, providerId), loggerOf(container)).gateway
}

export function apmClientFor(container: MedusaContainer, providerId: string): ApmClient {
  const { apm } = clientsFor(requireNexiOptions(container, providerId), loggerOf(container))
  if (!apm) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Mobile payments are not configured for ${providerId}: the Nexi provider has no \`apm\` options.`,
    )
  }
  return apm
}

/**
 * The store's card provider (pp_nexi_<entry id>), for what is about the merchant's gateway
 * rather than one payment. A store with several Nexi entries gets the first by id.
 */
export async function cardProviderIdOf(container: MedusaContainer): Promise<string> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  // A provider removed from medusa-config stays listed, disabled.
  const providers = await payment.listPaymentProviders({ is_enabled: true })
  const cardProvider = providers
    .map((provider) => provider.id)
    .filter(isNexiCardProviderId)
    .sort()[0]
  if (!cardProvider) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "No Nexi card provider is registered: add medusa-payment-nexi/providers/nexi to the payment module's providers in medusa-config.",
    )
  }
  return cardProvider
}

/** The plugin's ledger, a module of the store's container. */
export function ledgerOf(container: MedusaContainer): PaymentLedger {
  return container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE)
}

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
import { NEXI_LEDGER_MODULE, type PaymentLedger, type SavedCardBook } from "../modules/nexi-ledger/types"
import { clientsFor } from "./clients"
import { PaymentRecords } from "./medusa-records"
import { type NexiOptions, parseNexiOptions } from "./options"
import { apmMethodOfProvider, DEFAULT_STORE_ENTRY_ID, isNexiProviderId, storeEntryIdOf } from "./provider-ids"

type ConfigEntry = { id?: unknown; options?: unknown }

/** The payment module's provider entries in the store's configuration (medusa-config), as given. */
function paymentProviderEntries(config: unknown): ConfigEntry[] {
  const modules = (config as { modules?: Record<string, unknown> } | undefined)?.modules
  const payment = modules?.[Modules.PAYMENT]
  const providers =
    typeof payment === "object" ? (payment as { options?: { providers?: unknown } }).options?.providers : undefined
  return Array.isArray(providers) ? providers.filter((entry): entry is ConfigEntry => typeof entry === "object") : []
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

/** The merchant's card gateway, for what is about the gateway itself: order and operation lookups, the payment methods. */
export async function merchantGateway(container: MedusaContainer): Promise<GatewayClient> {
  return gatewayClientFor(container, await cardProviderIdOf(container))
}

/** The plugin's ledger, a module of the store's container. */
export function ledgerOf(container: MedusaContainer): PaymentLedger {
  return container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE)
}

// The providers' side: Medusa builds each provider with `new Provider(cradle, entry.options)`.

export type ProviderCradle = Record<string, unknown> & { logger?: Logger }

/** Reads a registration of the cradle, or undefined: awilix's cradle throws for an unknown name. */
function optionalRegistration(cradle: ProviderCradle, name: string): unknown {
  try {
    return cradle[name]
  } catch {
    return undefined
  }
}

/**
 * What a Nexi payment provider takes from the cradle Medusa builds it with: its store entry's
 * options and id, the key the ledger records, the ledger and Medusa's payment rows. Each
 * provider holds one and extends Medusa's AbstractPaymentProvider itself.
 */
export class ProviderEntry {
  readonly options: NexiOptions
  /** The `id` of the provider's entry in medusa-config: pp_<identifier>_<entryId>. */
  readonly entryId: string
  /**
   * The provider as Medusa's webhook route and payment module name it (`nexi_nexi`,
   * `nexi-apm-psp-b_nexi-it`): what the ledger records, so the job asks the entry that opened
   * a payment, with that entry's keys.
   */
  readonly providerKey: string
  readonly logger?: Logger
  readonly records: PaymentRecords

  constructor(
    private readonly cradle: ProviderCradle,
    options: unknown,
    identifier: string,
  ) {
    this.options = parseNexiOptions(options)
    this.logger = cradle.logger
    this.entryId = this.entryIdOf(options)
    this.providerKey = `${identifier}_${this.entryId}`
    this.records = new PaymentRecords(cradle)
  }

  /**
   * Medusa passes the very object of the store's configuration, so the entry is the one whose
   * options are this object. A provider built any other way (unit tests, the benchmark) finds
   * none and is the default entry's.
   */
  private entryIdOf(options: unknown): string {
    const config = optionalRegistration(this.cradle, ContainerRegistrationKeys.CONFIG_MODULE)
    const entry = paymentProviderEntries(config).find((candidate) => candidate.options === options)
    return typeof entry?.id === "string" && entry.id ? entry.id : DEFAULT_STORE_ENTRY_ID
  }

  /**
   * The plugin's ledger, resolved at each use: Medusa builds the providers while it is still
   * loading the modules the ledger may come after. The provider lives in the payment module's
   * container, which holds only what that module lists in `dependencies`; a store that left the
   * line out gets a message naming it, and no money write is sent unrecorded.
   */
  ledger(action: string): PaymentLedger {
    const ledger = optionalRegistration(this.cradle, NEXI_LEDGER_MODULE) as PaymentLedger | undefined
    if (!ledger) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}: the Nexi ledger is not available to the payment module. Add \`dependencies: ["${NEXI_LEDGER_MODULE}"]\` to the @medusajs/medusa/payment entry in medusa-config and list the plugin under \`plugins\`, then run \`medusa db:migrate\`.`,
      )
    }
    return ledger
  }

  /** The customers' saved cards live in the ledger's module: the same `dependencies` line reaches them. */
  savedCards(action: string): SavedCardBook {
    return this.ledger(action) as unknown as SavedCardBook
  }
}

/**
 * The same records read from outside the payment module (the sync, which runs in the store's
 * own container), through the module's public service: the row services it offers by listing.
 */
export function paymentRecordsOf(container: MedusaContainer): PaymentRecords {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const one =
    (what: string, list: (filters: { id: string }, config: Record<string, unknown>) => Promise<unknown[]>) =>
    async (id: string, config: Record<string, unknown>) => {
      const [row] = await list({ id }, config)
      if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `${what} ${id} was not found`)
      return row as Record<string, unknown>
    }
  return new PaymentRecords({
    captureService: { retrieve: one("Capture", (filters, config) => payments.listCaptures(filters, config)) },
    refundService: { retrieve: one("Refund", (filters, config) => payments.listRefunds(filters, config)) },
    paymentSessionService: {
      retrieve: (id: string, config: Record<string, unknown>) => payments.retrievePaymentSession(id, config),
    },
  })
}

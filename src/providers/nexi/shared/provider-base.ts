/**
 * What every Nexi payment provider shares: option validation, the store entry it was built for,
 * the ledger and the records of the payment module, and the three read methods that only
 * differ in how a provider reads its state from its service. A payment's status is already in
 * Medusa's words (core/payment-status.ts).
 */

import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  Logger,
  RetrievePaymentInput,
  RetrievePaymentOutput,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { PaymentRecords } from "../../../core/medusa-payments"
import { type NexiOptions, parseNexiOptions } from "../../../core/options"
import type { PaymentStatus } from "../../../core/payment-status"
import { DEFAULT_STORE_ENTRY_ID } from "../../../core/provider-ids"
import { paymentProviderEntries } from "../../../core/store-entries"
import { NEXI_LEDGER_MODULE, type PaymentLedger, type SavedCardBook } from "../../../modules/nexi-ledger/types"

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
 * The `id` of the store entry this provider was built for. Medusa builds each provider with
 * `new Provider(cradle, entry.options)`, passing the very object of the store's configuration,
 * so the entry is the one whose options are this object. A provider built any other way (unit
 * tests, the benchmark) finds none and is the default entry's.
 */
export function storeEntryIdFor(cradle: ProviderCradle, options: unknown): string {
  const config = optionalRegistration(cradle, ContainerRegistrationKeys.CONFIG_MODULE)
  const entry = paymentProviderEntries(config).find((candidate) => candidate.options === options)
  return typeof entry?.id === "string" && entry.id ? entry.id : DEFAULT_STORE_ENTRY_ID
}

/**
 * How a provider reaches the plugin's ledger. The provider lives in the payment module's
 * container, which holds only what that module lists in `dependencies`; a store that left
 * the line out gets a message naming it, and no money write is sent unrecorded.
 */
function ledgerFrom(cradle: ProviderCradle, action: string): PaymentLedger {
  const ledger = optionalRegistration(cradle, NEXI_LEDGER_MODULE) as PaymentLedger | undefined
  if (!ledger) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: the Nexi ledger is not available to the payment module. Add \`dependencies: ["${NEXI_LEDGER_MODULE}"]\` to the @medusajs/medusa/payment entry in medusa-config and list the plugin under \`plugins\`, then run \`medusa db:migrate\`.`,
    )
  }
  return ledger
}

/** The saved cards live in the ledger's module: the same `dependencies` line reaches them. */
function savedCardBookFrom(cradle: ProviderCradle, action: string): SavedCardBook {
  return ledgerFrom(cradle, action) as unknown as SavedCardBook
}

export abstract class NexiProviderBase<
  State extends { status: PaymentStatus },
> extends AbstractPaymentProvider<NexiOptions> {
  protected readonly options_: NexiOptions
  protected readonly records: PaymentRecords
  protected readonly logger_?: Logger
  protected readonly cradle_: ProviderCradle
  /** The `id` of this provider's entry in medusa-config: pp_<identifier>_<entryId>. */
  protected readonly entryId: string

  static validateOptions(options: Record<string, unknown>): void {
    parseNexiOptions(options)
  }

  constructor(cradle: ProviderCradle, options: NexiOptions) {
    super(cradle, options)
    this.options_ = parseNexiOptions(options)
    this.logger_ = cradle.logger
    this.cradle_ = cradle
    this.entryId = storeEntryIdFor(cradle, options)
    this.records = new PaymentRecords(cradle)
  }

  /**
   * The provider as Medusa's webhook route and payment module name it (`nexi_nexi`,
   * `nexi-apm-psp-b_nexi-it`): what the ledger records, so the job asks the entry that opened
   * a payment, with that entry's keys.
   */
  protected providerKey(): string {
    return `${this.getIdentifier()}_${this.entryId}`
  }

  /**
   * The plugin's ledger. Resolved at each use, not in the constructor: Medusa builds the
   * providers while it is still loading the modules the ledger may come after.
   */
  protected ledger(action: string): PaymentLedger {
    return ledgerFrom(this.cradle_, action)
  }

  /** The customers' saved cards, in the ledger's module. */
  protected savedCards(action: string): SavedCardBook {
    return savedCardBookFrom(this.cradle_, action)
  }

  /** Reads the payment from its service and folds the state into the session data. */
  protected abstract readState(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: State; data: Record<string, unknown> }>

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const { state, data } = await this.readState(input.data, "authorize the payment")
    return { status: state.status, data }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { state, data } = await this.readState(input.data, "read the payment status")
    return { status: state.status, data }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: (await this.readState(input.data, "retrieve the payment")).data }
  }
}

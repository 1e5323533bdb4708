/**
 * The card payment provider (`pp_nexi_<entry id>`, so `pp_nexi_nexi` for an entry `id: "nexi"`):
 * Medusa's payment lifecycle on the Nexi XPay hosted payment page, as a door. Each method hands
 * Medusa's call to the core: sessions and their status (src/core/card/card-sessions.ts), capture,
 * refund and cancel (src/core/card/card-money.ts), saved cards and account holders
 * (src/core/card/saved-card-methods.ts); what a notification means is the sync's (src/core/card/card-sync.ts).
 */
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderInput,
  DeleteAccountHolderOutput,
  DeletePaymentInput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, PaymentActions } from "@medusajs/framework/utils"
import { type CardMoneyContext, cancelCard, captureCard, refundCard } from "../../../core/card/card-money"
import { type CardDeps, CardSessions, readCardSessionData } from "../../../core/card/card-sessions"
import { SavedCardMethods } from "../../../core/card/saved-card-methods"
import { clientsFor } from "../../../core/clients"
import { toMedusaError } from "../../../core/medusa-errors"
import { type NexiOptions, parseNexiOptions } from "../../../core/options"
import { type ProviderCradle, ProviderEntry } from "../../../core/store-entries"
import type { GatewayClient } from "../../../gateway/gateway-client"

export class NexiCardProviderService extends AbstractPaymentProvider<NexiOptions> {
  static identifier = "nexi"

  static validateOptions(options: Record<string, unknown>): void {
    parseNexiOptions(options)
  }

  private readonly entry: ProviderEntry
  protected readonly gateway: GatewayClient
  private readonly savedCards: SavedCardMethods
  private readonly sessions: CardSessions

  /**
   * Medusa builds the provider with `(cradle, options)`; the gateway client is then the store
   * entry's own (core/clients.ts). Tests and the benchmark pass the client they watch.
   */
  constructor(cradle: ProviderCradle, options: NexiOptions, gateway?: GatewayClient) {
    super(cradle, options)
    const entry = new ProviderEntry(cradle, options, this.getIdentifier())
    const { entryId, providerKey, logger } = entry
    this.entry = entry
    this.gateway = gateway ?? clientsFor(entry.options, logger).gateway
    const deps: CardDeps = {
      gateway: this.gateway,
      ledger: (action) => entry.ledger(action),
      savedCards: (action) => entry.savedCards(action),
      options: entry.options,
      entryId,
      providerKey,
      logger,
    }
    this.savedCards = new SavedCardMethods(deps)
    this.sessions = new CardSessions(deps)
  }

  initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    return this.sessions.initiate(input)
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const { state, data } = await this.sessions.authorize(input.data)
    return { status: state.status, data }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { state, data } = await this.sessions.read(input.data, "read the payment status")
    return { status: state.status, data }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: (await this.sessions.read(input.data, "retrieve the payment")).data }
  }

  updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    return this.sessions.update(input)
  }

  deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return this.sessions.delete(input)
  }

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const key = input.context?.idempotency_key
    return { data: await this.moneyMove("capture the payment", (context) => captureCard(context, input.data, key)) }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const key = input.context?.idempotency_key
    const refund = (context: CardMoneyContext) => refundCard(context, input.data, key, input.amount)
    return { data: await this.moneyMove("refund the payment", refund) }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readCardSessionData(input.data)
    if (!data.order_id) return { data: input.data }
    const key = input.context?.idempotency_key ?? data.session_id ?? data.order_id
    return { data: await this.moneyMove("cancel the payment", (context) => cancelCard(context, input.data, key)) }
  }

  /**
   * Called by Medusa's webhook subscriber for POST /hooks/payment/nexi_<entry id>. The plugin's
   * own subscriber syncs the order (src/core/card/card-sync.ts), completing the cart as Medusa's
   * would; answered without a session, Medusa's subscriber does nothing, and the gateway is
   * read once per notification (docs/architecture.md).
   */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  /** Capture, refund or cancel in the core; whatever fails is Medusa's error naming `action`. */
  private async moneyMove<T>(action: string, move: (context: CardMoneyContext) => Promise<T>): Promise<T> {
    const { records, logger } = this.entry
    try {
      return await move({ gateway: this.gateway, ledger: this.entry.ledger(action), action, records, logger })
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    return this.savedCards.createAccountHolder(input)
  }

  /** Nothing of the customer is kept at the gateway, so there is nothing to update there. */
  async updateAccountHolder(_input: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
    return {}
  }

  deleteAccountHolder(input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    return this.savedCards.deleteAccountHolder(input)
  }

  listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return this.savedCards.listPaymentMethods(input)
  }

  savePaymentMethod(input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    return this.savedCards.savePaymentMethod(input)
  }

  deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    return this.savedCards.deletePaymentMethod(input)
  }
}

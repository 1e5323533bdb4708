/**
 * The card payment provider (`pp_nexi_<entry id>`, so `pp_nexi_nexi` for an entry `id: "nexi"`):
 * Medusa's payment lifecycle on the Nexi XPay hosted payment page, as a door. Each method hands
 * Medusa's call to the core: sessions and their status (src/core/card/card-sessions.ts), capture,
 * refund and cancel (src/core/card/card-money.ts), saved cards and account holders
 * (src/core/card/card-wallet.ts); what a notification means is the sync's (src/core/card/card-sync.ts).
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
import { CardSessions, readCardSessionData } from "../../../core/card/card-sessions"
import { CardWallet } from "../../../core/card/card-wallet"
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
  private readonly wallet: CardWallet
  private readonly sessions: CardSessions

  /**
   * Medusa builds the provider with `(cradle, options)`; the gateway client is then the store
   * entry's own (core/clients.ts). Tests and the benchmark pass the client they watch.
   */
  constructor(cradle: ProviderCradle, options: NexiOptions, gateway?: GatewayClient) {
    super(cradle, options)
    const entry = new ProviderEntry(cradle, options, this.getIdentifier())
    const { entryId, providerKey, logger } = entry
    const ledger = (action: string) => entry.ledger(action)
    const savedCards = (action: string) => entry.savedCards(action)
    this.entry = entry
    this.gateway = gateway ?? clientsFor(entry.options, logger).gateway
    this.wallet = new CardWallet({
      gateway: this.gateway,
      book: savedCards,
      ledger,
      options: entry.options,
      entryId,
      providerKey,
      logger,
    })
    this.sessions = new CardSessions({
      gateway: this.gateway,
      ledger,
      savedCards,
      options: entry.options,
      entryId,
      providerKey,
      logger,
    })
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
    const action = "capture the payment"
    try {
      return { data: await captureCard(this.writeContext(action), input.data, input.context?.idempotency_key) }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const action = "refund the payment"
    try {
      const context = this.writeContext(action)
      return { data: await refundCard(context, input.data, input.context?.idempotency_key, input.amount) }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readCardSessionData(input.data)
    const action = "cancel the payment"
    const key = input.context?.idempotency_key ?? data.session_id ?? data.order_id ?? ""
    try {
      if (!data.order_id) return { data: input.data }
      return { data: await cancelCard(this.writeContext(action), input.data, key) }
    } catch (error) {
      throw toMedusaError(error, action)
    }
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

  private writeContext(action: string): CardMoneyContext {
    const { records, logger } = this.entry
    return { gateway: this.gateway, ledger: this.entry.ledger(action), action, records, logger }
  }

  createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    return this.wallet.createAccountHolder(input)
  }

  /** Nothing of the customer is kept at the gateway, so there is nothing to update there. */
  async updateAccountHolder(_input: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
    return {}
  }

  deleteAccountHolder(input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    return this.wallet.deleteAccountHolder(input)
  }

  listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return this.wallet.listPaymentMethods(input)
  }

  savePaymentMethod(input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    return this.wallet.savePaymentMethod(input)
  }

  deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    return this.wallet.deletePaymentMethod(input)
  }
}

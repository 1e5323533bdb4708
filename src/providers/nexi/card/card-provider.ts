/**
 * The card payment provider (`pp_nexi_<entry id>`, so `pp_nexi_nexi` for an entry `id: "nexi"`):
 * Medusa's payment lifecycle on the Nexi XPay hosted payment page. Each method reads or writes
 * the gateway through the GatewayClient and keeps the session data true. Elsewhere: the mapping
 * of a gateway order to a status (src/core/card-order.ts), what a notification means
 * (src/core/card-sync.ts), saved cards and account holders (card-wallet.ts, card-on-file.ts).
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
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { type CardMoneyContext, cancelCard, captureCard, refundCard } from "../../../core/card-money"
import {
  type CardOnFile,
  cardOnFileOfNewSession,
  cardOnFileOfSession,
  customerRefOf,
  newContractId,
  recurrenceOf,
  SAVE_CARD_KEY,
  saveCardOfPayment,
  sessionDataOf,
} from "../../../core/card-on-file"
import { type CardOrder, readCardOrder } from "../../../core/card-order"
import { type CardSessionData, readCardSessionData } from "../../../core/card-session-data"
import { CardWallet } from "../../../core/card-wallet"
import { readCartContext, withoutCartContext } from "../../../core/cart-context"
import { clientsFor } from "../../../core/clients"
import { buildHostedOrderRequest } from "../../../core/hosted-order"
import { toMedusaError } from "../../../core/medusa-errors"
import { isMotoRequest, motoSessionData } from "../../../core/moto"
import type { NexiOptions } from "../../../core/options"
import { hashSecurityToken } from "../../../core/security-token"
import type { GatewayClient } from "../../../gateway/gateway-client"
import { newOrderId } from "../../../gateway/order-id"
import { NexiProviderBase, type ProviderCradle, SESSION_STATUS } from "../shared/provider-base"

export class NexiCardProviderService extends NexiProviderBase<CardOrder> {
  static identifier = "nexi"

  protected readonly gateway: GatewayClient
  private readonly wallet: CardWallet

  constructor(cradle: ProviderCradle, options: NexiOptions) {
    super(cradle, options)
    this.gateway = this.createGateway()
    this.wallet = new CardWallet({
      gateway: this.gateway,
      book: (action) => this.savedCards(action),
      options: this.options_,
      entryId: this.entryId,
      providerKey: this.providerKey(),
      logger: this.logger_,
    })
  }

  protected get providerLabel(): string {
    return "Nexi card"
  }

  /** Overridable so tests and the benchmark can point the provider at any GatewayClient. */
  protected createGateway(): GatewayClient {
    return clientsFor(this.options_, this.logger_).gateway
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    if (isMotoRequest(input.context)) {
      // Staff charge the card through the admin route; only the gateway order id is reserved here.
      const currency = input.currency_code.toUpperCase()
      const amountMinor = this.minor(input.amount, currency, "start the MOTO payment")
      const data = motoSessionData({
        sessionId,
        orderId: newOrderId(this.options_.orderIdPrefix),
        amountMinor,
        currency,
      })
      // Watched like a hosted order: if the charge's answer is lost, the job still finds it.
      // Until the card is charged the gateway knows no such order, which the job reads as pending.
      await this.openAttempt(
        data.order_id,
        sessionId,
        input,
        { amountMinor, currency, nextCheckAt: this.pollAfter() },
        "start the MOTO payment",
      )
      return { id: data.order_id, data, status: "pending_authorization" }
    }
    const cardOnFile = await this.cardOnFileOf(() =>
      cardOnFileOfNewSession(this.savedCards("start the payment"), input.data, input.context, this.providerKey()),
    )
    const data = await this.startHostedOrder(sessionId, input, cardOnFile)
    return { id: data.order_id, data, status: "pending" }
  }

  /** A payment Medusa now holds needs no more reads from the job; a card it was to save is saved. */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const { state, data } = await this.readState(input.data, "authorize the payment")
    const orderId = readCardSessionData(input.data).order_id
    if (orderId && (state.status === "authorized" || state.status === "captured")) {
      await this.ledger("authorize the payment").updateAttempt(orderId, { state: "paid", next_check_at: null })
    }
    if (orderId && input.data?.[SAVE_CARD_KEY] === true) await this.saveCardOf(orderId, state)
    return { status: SESSION_STATUS[state.status], data }
  }

  /** A replaced or deleted hosted order saves no card: a payment made on it is released. */
  private async dropCardToSave(orderId: string): Promise<void> {
    const book = this.savedCards("replace the hosted order")
    const card = await book.findSavedCardOfOrder(orderId)
    if (card?.state === "pending") await book.updateSavedCard(card.id, { state: "failed" })
  }

  private async saveCardOf(orderId: string, state: CardOrder): Promise<void> {
    await saveCardOfPayment(this.savedCards("save the card"), this.gateway, orderId, state, this.logger_)
  }

  /** A hosted order cannot change: a new amount or currency needs a new one; the old one stays watched. */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const current = readCardSessionData(input.data)
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "update the payment")
    if (current.order_id && current.amount_minor === amountMinor && current.currency === currency) {
      return { data: withoutCartContext(input.data) }
    }
    if (current.moto === true) {
      // Its gateway order may already be charged: a new amount needs a new MOTO payment.
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Could not update the payment: a MOTO payment's amount cannot change. Start a new MOTO payment.",
      )
    }
    const sessionId = String(current.session_id ?? input.context?.idempotency_key ?? "")
    const cardOnFile = await this.cardOnFileOf(() =>
      cardOnFileOfSession(this.savedCards("update the payment"), input.data ?? {}, current.order_id),
    )
    const data = await this.startHostedOrder(sessionId, input, cardOnFile)
    // The old hosted page may still be open in a tab: a payment made there is released.
    await this.ledger("update the payment").supersedeAttempts(
      sessionId,
      data.order_id,
      "a hosted order the cart had replaced",
    )
    if (current.order_id) await this.dropCardToSave(current.order_id)
    return { data, status: "pending" }
  }

  /** An unpaid hosted order simply expires; one paid later is released by the job or its notification. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = readCardSessionData(input.data)
    if (data.session_id && data.order_id) {
      await this.ledger("delete the payment").supersedeAttempts(
        data.session_id,
        undefined,
        "a hosted order whose payment session was deleted",
      )
      await this.dropCardToSave(data.order_id)
    }
    return { data: input.data }
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
   * own subscriber syncs the order (src/core/card-sync.ts), completing the cart as Medusa's
   * would; answered without a session, Medusa's subscriber does nothing, and the gateway is
   * read once per notification (docs/architecture.md).
   */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  private writeContext(action: string): CardMoneyContext {
    return { gateway: this.gateway, ledger: this.ledger(action), action, records: this.records, logger: this.logger_ }
  }

  /** Records the gateway order in the ledger before Medusa hears of it, so it stays known whatever follows. */
  private async openAttempt(
    orderId: string,
    sessionId: string,
    input: InitiatePaymentInput | UpdatePaymentInput,
    money: { amountMinor: string; currency: string; nextCheckAt: Date | null; securityTokenHash?: string },
    action: string,
  ): Promise<void> {
    try {
      await this.ledger(action).openAttempt({
        provider_identifier: this.providerKey(),
        gateway_ref: orderId,
        session_id: sessionId || null,
        cart_id: readCartContext(input.data)?.cart_id ?? null,
        amount_minor: money.amountMinor,
        currency: money.currency,
        next_check_at: money.nextCheckAt,
        security_token_hash: money.securityTokenHash ?? null,
      })
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  private async startHostedOrder(
    sessionId: string,
    input: InitiatePaymentInput | UpdatePaymentInput,
    cardOnFile: CardOnFile,
  ): Promise<CardSessionData> {
    const currency = input.currency_code.toUpperCase()
    const amountMinor = this.minor(input.amount, currency, "start the payment")
    const orderId = newOrderId(this.options_.orderIdPrefix)
    const contractId = cardOnFile.kind === "save" ? newContractId() : undefined
    const request = buildHostedOrderRequest({
      orderId,
      sessionId,
      amountMinor,
      currencyCode: currency,
      customer: input.context?.customer,
      cart: readCartContext(input.data),
      options: this.options_,
      entryId: this.entryId,
      customerRef: this.customerRefOf(cardOnFile, input),
      recurrence: recurrenceOf(cardOnFile, contractId),
    })
    const pollAfter = this.pollAfter()
    try {
      const answer = await this.gateway.createHostedOrder(request)
      const securityTokenHash = hashSecurityToken(answer.securityToken)
      // Recorded once the gateway answers, side by side, the token's hash with the attempt:
      // nobody can pay on a hosted page before its address reaches the storefront, which it
      // does only once both records exist. An order whose answer was lost, or whose records
      // failed, is one nobody can pay.
      const records: Promise<unknown>[] = [
        this.openAttempt(
          orderId,
          sessionId,
          input,
          { amountMinor, currency, nextCheckAt: pollAfter, securityTokenHash },
          "start the payment",
        ),
      ]
      if (cardOnFile.kind === "save" && contractId) {
        records.push(
          this.savedCards("start the payment").createSavedCard({
            provider_identifier: this.providerKey(),
            customer_ref: cardOnFile.customerRef,
            customer_id: cardOnFile.customerId,
            contract_id: contractId,
            gateway_ref: orderId,
            purpose: "checkout",
          }),
        )
      }
      await Promise.all(records)
      return {
        ...withoutCartContext(input.data),
        ...sessionDataOf(cardOnFile),
        session_id: sessionId,
        order_id: orderId,
        hosted_page: answer.hostedPage,
        amount_minor: amountMinor,
        currency,
        security_token_hash: securityTokenHash,
        status: "pending",
        poll_after: pollAfter.toISOString(),
        reason: undefined,
        payment_operation_id: undefined,
        capture_operation_id: undefined,
      }
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
  }

  /** When the reconciliation job may start reading a new order, if no notification came. */
  private pollAfter(): Date {
    return new Date(Date.now() + this.options_.pollPendingAfterSeconds * 1000)
  }

  /** The saved-card choice, with a refusal that names the field as Medusa's error. */
  private async cardOnFileOf(read: () => Promise<CardOnFile>): Promise<CardOnFile> {
    try {
      return await read()
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
  }

  /** The gateway's customerId: the account holder's when the customer has one (saved cards belong to it). */
  private customerRefOf(cardOnFile: CardOnFile, input: InitiatePaymentInput | UpdatePaymentInput): string | undefined {
    if (cardOnFile.kind === "save") return cardOnFile.customerRef
    if (cardOnFile.kind === "pay_with") return cardOnFile.card.customer_ref
    return customerRefOf((input.context as { account_holder?: unknown } | undefined)?.account_holder)
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

  /** Reads the gateway order and folds its state into the session data. */
  protected async readState(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: CardOrder; data: Record<string, unknown> }> {
    const data = readCardSessionData(raw)
    try {
      const orderId = this.require(data.order_id, "order_id", action)
      const state = readCardOrder(await this.gateway.getOrder(orderId))
      const paid = state.status === "authorized" || state.status === "captured"
      if (paid && data.amount_minor && BigInt(state.authorizedMinor) < BigInt(data.amount_minor)) {
        // Never let Medusa record more than the gateway holds.
        state.status = "error"
        state.reason = "The gateway authorized less than the session amount."
      }
      return {
        state,
        data: {
          ...raw,
          status: state.status,
          reason: state.reason,
          payment_operation_id: state.paymentOperationId,
          capture_operation_id: state.captureOperationId,
        },
      }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }
}

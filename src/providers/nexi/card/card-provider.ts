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
import { claimOrphans, orphanedWrites, releaseClaims, totalMinor } from "../../../core/earlier-writes"
import { buildHostedOrderRequest } from "../../../core/hosted-order"
import { idempotencyUuid } from "../../../core/idempotency"
import {
  type CardWriteContext,
  releaseHeldAuthorization,
  requestOf,
  type SettleContext,
  sendCardWrite,
  settledWritesOf,
  voidAuthorization,
} from "../../../core/ledgered-writes"
import { toMedusaError } from "../../../core/medusa-errors"
import { isMotoRequest, motoSessionData } from "../../../core/moto"
import type { NexiOptions } from "../../../core/options"
import { recordedOperationIds } from "../../../core/recorded-refunds"
import { hashSecurityToken } from "../../../core/security-token"
import type { GatewayClient } from "../../../gateway/gateway-client"
import { newOrderId } from "../../../gateway/order-id"
import { InvalidRequestError } from "../../../http/errors"
import { minorToMajorString, minorUnitsToSend, toMinorUnits } from "../../../money/amount"
import { NexiProviderBase, type ProviderCradle, SESSION_STATUS } from "../shared/provider-base"

/** The gateway takes one capture per authorization, and this one is made already. */
function capturedElsewhere(capturedMinor: string, currency: string): MedusaError {
  const captured = `${minorToMajorString(capturedMinor, currency)} ${currency}`
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not capture the payment: the Nexi gateway accepts one capture per authorization and ${captured} is already captured. Refund or cancel that capture instead.`,
  )
}

/** An earlier capture whose answer was lost was made, for another amount than this one. */
function capturedByLostAnswer(capturedMinor: string, currency: string): MedusaError {
  const captured = `${minorToMajorString(capturedMinor, currency)} ${currency}`
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not capture the payment: an earlier capture of ${captured}, whose answer was lost, was made at the Nexi gateway, which accepts one capture per authorization. Nothing was sent. Capture exactly ${captured}, or wait: the plugin records it in Medusa within minutes.`,
  )
}

/** The gateway holds less than this refund would take: nothing is sent rather than more than is left. */
function moreThanRefundable(refundMinor: bigint, leftMinor: bigint, currency: string): MedusaError {
  const amount = (minor: bigint) => `${minorToMajorString(minor, currency)} ${currency}`
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not refund the payment: it would refund ${amount(refundMinor)} at the Nexi gateway, which has ${amount(leftMinor > 0n ? leftMinor : 0n)} left to refund on this order (a refund made in Nexi's back office, or one still pending, takes the rest). Nothing was sent; sync the payment from the gateway, then refund at most what is left.`,
  )
}

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
    const data = readCardSessionData(input.data)
    const action = "capture the payment"
    try {
      const captureId = this.require(input.context?.idempotency_key, "capture id from Medusa", action)
      const orderId = this.require(data.order_id, "order_id", action)
      const operationId = this.require(data.payment_operation_id, "payment_operation_id", action)
      const currency = this.require(data.currency, "currency", action)
      // Money by totals; the gateway captures at most what it authorized, the session's amount.
      const amountMinor = minorUnitsToSend({
        amount: await this.records.captureAmount(captureId),
        before: await this.records.capturedBefore(captureId),
        currencyCode: currency,
        leftMinor: data.amount_minor ? BigInt(data.amount_minor) : undefined,
      }).toString()
      const context = this.writeContext(action)
      const writes = await settledWritesOf(context, orderId)
      // A capture the gateway made for an earlier, rolled-back Medusa capture is this one,
      // when the amounts agree; the gateway takes no second capture, so any other amount is refused.
      const [orphan] = orphanedWrites(writes, "capture")
      if (orphan && orphan.amount_minor !== amountMinor) throw capturedByLostAnswer(orphan.amount_minor, currency)
      const key = idempotencyUuid(captureId)
      const [claimed] = await claimOrphans(context.ledger, writes, {
        kind: "capture",
        amountMinor: BigInt(amountMinor),
        claimant: captureId,
        ownKey: key,
      })
      if (claimed)
        return { data: { ...input.data, capture_operation_id: claimed.gateway_operation_id, status: "captured" } }
      const write = {
        kind: "capture" as const,
        idempotency_key: key,
        gateway_ref: orderId,
        target_ref: operationId,
        amount_minor: amountMinor,
        currency,
        medusa_ref: captureId,
      }
      try {
        const captureOperationId = await sendCardWrite(context, write, requestOf(this.gateway, write))
        return { data: { ...input.data, capture_operation_id: captureOperationId, status: "captured" } }
      } catch (error) {
        if (!(error instanceof InvalidRequestError)) throw error
        return { data: await this.captureAlreadyDone(data, captureId, error) }
      }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  /**
   * The gateway refused the capture. It is a success when the gateway already holds at least
   * what Medusa will have captured (IMPLICIT capture, a capture in the gateway's back office);
   * otherwise the refusal stands, with its reason.
   */
  private async captureAlreadyDone(
    data: Partial<CardSessionData>,
    captureId: string,
    refusal: InvalidRequestError,
  ): Promise<Record<string, unknown>> {
    const orderId = this.require(data.order_id, "order_id", "capture the payment")
    const currency = this.require(data.currency, "currency", "capture the payment")
    const state = readCardOrder(await this.gateway.getOrder(orderId))
    const medusaTotalMinor = toMinorUnits(await this.records.capturedTotalOfPaymentOf(captureId), currency)
    // Equal, not "at least": Medusa must never show another captured amount than the gateway.
    if (state.captureOperationId && BigInt(state.capturedMinor) === BigInt(medusaTotalMinor)) {
      return { ...data, capture_operation_id: state.captureOperationId, status: "captured" }
    }
    if (state.captureOperationId) throw capturedElsewhere(state.capturedMinor, currency)
    throw refusal
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = readCardSessionData(input.data)
    const action = "refund the payment"
    try {
      const refundId = this.require(input.context?.idempotency_key, "refund id from Medusa", action)
      const orderId = this.require(data.order_id, "order_id", action)
      const currency = this.require(data.currency, "currency", action)
      const context = this.writeContext(action)
      const recorded = recordedOperationIds(await this.records.refundMetadata(refundId))
      if (recorded.length) {
        // Recorded from the gateway (back office, a settled lost answer, a cancelled capture):
        // the money moved already; the writes it accounts for are no longer anyone's to take.
        await this.claimRecordedRefunds(context, orderId, recorded, refundId)
        return { data: input.data }
      }
      const writes = await settledWritesOf(context, orderId)
      // Money by totals, capped at what the gateway has left to refund. A gateway that cannot
      // be read now still judges the refund itself: the read must not stop one it would make.
      const state = await this.gateway.getOrder(orderId).then(readCardOrder, () => undefined)
      const leftMinor = state && BigInt(state.refundableMinor)
      const amountMinor = minorUnitsToSend({
        amount: input.amount as never,
        before: await this.records.refundedBefore(refundId),
        currencyCode: currency,
        leftMinor,
      })
      const key = idempotencyUuid(refundId)
      const claimed = await claimOrphans(context.ledger, writes, {
        kind: "refund",
        amountMinor,
        claimant: refundId,
        ownKey: key,
      })
      const remainingMinor = amountMinor - totalMinor(claimed)
      if (remainingMinor === 0n) return { data: input.data }
      // This refund's own write, if an earlier call of it sent it, is in what the gateway no longer has.
      const own = writes.find((write) => write.idempotency_key === key && write.outcome !== "refused")
      if (leftMinor !== undefined && remainingMinor > leftMinor + BigInt(own?.amount_minor ?? "0")) {
        await releaseClaims(context.ledger, claimed, action)
        throw moreThanRefundable(remainingMinor, leftMinor, currency)
      }
      const target = this.require(
        data.capture_operation_id ?? state?.captureOperationId,
        "capture_operation_id",
        action,
      )
      const write = {
        kind: "refund" as const,
        idempotency_key: key,
        gateway_ref: orderId,
        target_ref: target,
        amount_minor: remainingMinor.toString(),
        currency,
        medusa_ref: refundId,
      }
      try {
        await sendCardWrite(context, write, requestOf(this.gateway, write))
      } catch (error) {
        await releaseClaims(context.ledger, claimed, action)
        throw error
      }
      return { data: { ...input.data, capture_operation_id: target } }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  private async claimRecordedRefunds(
    context: CardWriteContext,
    orderId: string,
    operationIds: string[],
    refundId: string,
  ): Promise<void> {
    const recorded = new Set(operationIds)
    for (const write of await context.ledger.writesOf(orderId)) {
      if (
        write.kind === "refund" &&
        !write.claimed_by &&
        write.gateway_operation_id &&
        recorded.has(write.gateway_operation_id)
      ) {
        await context.ledger.claimWrite(write.id, refundId)
      }
    }
  }

  /**
   * Order cancel, or Medusa undoing a payment it could not record: it ends with nothing
   * authorized or charged for the shopper. An uncaptured authorization is voided (a refund on
   * the AUTHORIZATION operation); a capture (one Medusa may not know of: made in the back
   * office, or whose answer Medusa lost) is cancelled, and the authorization the cancel gives
   * back is voided; or the capture is refunded when the gateway no longer allows the cancel
   * (it does so on the day of the capture only).
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = readCardSessionData(input.data)
    const action = "cancel the payment"
    const key = input.context?.idempotency_key ?? data.session_id ?? data.order_id ?? ""
    try {
      if (!data.order_id) return { data: input.data }
      const currency = this.require(data.currency, "currency", action)
      const context = this.writeContext(action)
      await settledWritesOf(context, data.order_id)
      const state = readCardOrder(await this.gateway.getOrder(data.order_id))
      if (state.status === "captured" && state.captureOperationId && state.paymentOperationId) {
        const paymentOperationId = state.paymentOperationId
        await this.undoCapture(context, data.order_id, state, currency, key)
        await releaseHeldAuthorization(context, {
          orderId: data.order_id,
          paymentOperationId,
          currency,
          medusaRef: key,
        })
      } else if (state.status === "authorized" && state.paymentOperationId) {
        const authorization = {
          orderId: data.order_id,
          paymentOperationId: state.paymentOperationId,
          amountMinor: state.authorizedMinor,
        }
        await voidAuthorization(context, { ...authorization, currency, medusaRef: key })
      }
      return { data: { ...input.data, status: "canceled" } }
    } catch (error) {
      throw toMedusaError(error, action)
    }
  }

  private async undoCapture(
    context: CardWriteContext,
    orderId: string,
    state: CardOrder,
    currency: string,
    key: string,
  ): Promise<void> {
    const captureOperationId = state.captureOperationId as string
    // The gateway takes no idempotency key on cancels; the ledger's key is ours alone.
    const cancel = {
      kind: "cancel_capture" as const,
      idempotency_key: idempotencyUuid(`${key}:cancel`),
      gateway_ref: orderId,
      target_ref: captureOperationId,
      amount_minor: state.capturedMinor,
      currency,
      medusa_ref: key,
    }
    try {
      await sendCardWrite(
        context,
        cancel,
        async () =>
          (await this.gateway.cancelCapture(captureOperationId, { description: "Payment cancelled in Medusa" }))
            .operationId,
      )
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error
      // Refunds still PENDING will take their money too: only the rest is refunded.
      const remaining = BigInt(state.refundableMinor)
      if (remaining <= 0n) return
      const refundKey = idempotencyUuid(`${key}:cancel-refund`)
      const refund = {
        kind: "refund" as const,
        idempotency_key: refundKey,
        gateway_ref: orderId,
        target_ref: captureOperationId,
        amount_minor: remaining.toString(),
        currency,
        medusa_ref: key,
      }
      await sendCardWrite(
        context,
        refund,
        async () =>
          (
            await this.gateway.refund(
              captureOperationId,
              {
                amount: remaining.toString(),
                currency,
                description: "Refund of a capture that can no longer be cancelled",
              },
              refundKey,
            )
          ).operationId,
      )
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

  private writeContext(action: string): SettleContext {
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

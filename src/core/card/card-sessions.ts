/**
 * The card payment's sessions as Medusa opens, changes and reads them: a hosted order (its
 * hosted page, or its card fields in the storefront's checkout: XPay Build, which
 * build-finalize.ts pays), or a MOTO reservation, recorded in the ledger before Medusa hears of it, a new order when the amount
 * changes, the saved card of a paid session, and the status of the order through the read
 * model (card-order.ts). The card provider hands Medusa's calls here.
 *
 * What a session keeps (its data) comes first: the storefront can read it, so it holds the
 * hosted page to redirect to (or the Build session's fields and SDK) and the outcome to show,
 * never the securityToken itself (only its hash).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type {
  DeletePaymentInput,
  DeletePaymentOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  UpdatePaymentInput,
  UpdatePaymentOutput,
} from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { buildSdkUrl } from "../../gateway/environment"
import type { GatewayClient } from "../../gateway/gateway-client"
import { newOrderId } from "../../gateway/order-id"
import { LANGUAGE_KEY } from "../../i18n/page-language"
import type { PaymentLedger, SavedCardBook } from "../../modules/nexi-ledger/types"
import { paidWatch } from "../attempt-watch"
import { readCartContext, withoutCartContext } from "../cart-context"
import { minorUnitsFor, requireField, toMedusaError } from "../medusa-errors"
import type { NexiOptions } from "../options"
import {
  minorAmount,
  optional,
  PAYMENT_STATUSES,
  type PaymentStatus,
  paidInFull,
  sessionDataReader,
} from "../session-data"
import {
  STAFF_CHANNEL_NOUNS,
  STAFF_CHANNELS,
  type StaffSessionData,
  staffChannelOfContext,
  staffChannelOfSession,
} from "../staff-sessions"
import { type CardOrder, readCardOrder } from "./card-order"
import { buildBuildRequest, buildHostedOrderRequest, type HostedOrderInput } from "./hosted-order"
import { cancelLinkOfAttempt } from "./payment-links"
import {
  customerRefOf,
  newContractId,
  PAYMENT_METHOD_KEY,
  recurrenceOf,
  SAVE_CARD_KEY,
  type SavedCardChoice,
  saveCardOfPayment,
  savedCardChoiceOfNewSession,
  savedCardChoiceOfSession,
  sessionDataOf,
} from "./saved-card-choice"
import { walletOfSessionData } from "./wallet-choice"

/** What the storefront sets in the session data to have the card typed in its own checkout (XPay Build). */
export const INTEGRATION_KEY = "integration"

/** One card field of a Build session: an `<iframe src>` in the element whose DOM id is `id`. */
export interface BuildFieldData extends Record<string, unknown> {
  id: string
  src: string
  type?: string
  class?: string
}

export interface CardSessionData extends Record<string, unknown> {
  session_id: string
  /** The gateway order of the current payment attempt. */
  order_id: string
  /** Where the storefront sends the shopper to pay (the hosted page). */
  hosted_page?: string
  /** XPay Build: the gateway's session (finalized by build-finalize.ts), its card fields and the SDK that runs them. */
  build_session_id?: string
  build_fields?: BuildFieldData[]
  build_sdk?: string
  amount_minor: string
  currency: string
  security_token_hash: string
  status: PaymentStatus
  /** ISO time from which the reconciliation job reads the order if it is still pending. */
  poll_after?: string
  /** Why the payment failed or was cancelled, for the storefront to show. */
  reason?: string
  /** AUTHORIZATION operation (EXPLICIT) or CAPTURE operation (IMPLICIT) that paid. */
  payment_operation_id?: string
  capture_operation_id?: string
}

/** The session data, every field checked; one of the wrong type is an error naming it. */
export const readCardSessionData: (data: Record<string, unknown> | undefined) => Partial<CardSessionData> =
  sessionDataReader({
    session_id: optional(z.string()),
    order_id: optional(z.string()),
    hosted_page: optional(z.string()),
    [INTEGRATION_KEY]: optional(
      z.enum(["hosted", "build"], {
        error: 'must be "build" (the card fields in the checkout) or "hosted" (the hosted page, the default)',
      }),
    ),
    build_session_id: optional(z.string()),
    amount_minor: optional(minorAmount),
    currency: optional(z.string()),
    security_token_hash: optional(z.string()),
    status: optional(z.enum(PAYMENT_STATUSES)),
    poll_after: optional(z.string()),
    reason: optional(z.string()),
    payment_operation_id: optional(z.string()),
    capture_operation_id: optional(z.string()),
    moto: optional(z.boolean()),
    staff_channel: optional(z.enum(STAFF_CHANNELS)),
    save_card: optional(z.boolean()),
    allow_merchant_charges: optional(z.boolean()),
    payment_method_id: optional(z.string()),
  })

/** A field the card payment needs, or an error saying the payment was not started with the card provider. */
export function requireCardField<T>(value: T | undefined | null, field: string, action: string): T {
  return requireField(value, field, action, "Nexi card")
}

/**
 * The gateway signs nothing: a notification is genuine when it carries the securityToken the
 * gateway gave us for that order. Session data is readable by the storefront, so only a
 * SHA-256 of the token is stored there, and the comparison is constant-time.
 */
export function hashSecurityToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex")
}

export function securityTokenMatches(token: unknown, expectedHash: unknown): boolean {
  if (typeof token !== "string" || typeof expectedHash !== "string" || !/^[0-9a-f]{64}$/.test(expectedHash)) {
    return false
  }
  return timingSafeEqual(Buffer.from(hashSecurityToken(token), "hex"), Buffer.from(expectedHash, "hex"))
}

/** What the card provider's sessions (below) and saved cards (saved-card-methods.ts) are built from. */
export interface CardDeps {
  gateway: GatewayClient
  /**
   * The ledger (where a deleted card's contract deactivation is recorded too, saved-card-methods.ts) and
   * the saved cards, resolved at each use: Medusa may build a provider before the ledger is loaded.
   */
  ledger: (action: string) => PaymentLedger
  savedCards: (action: string) => SavedCardBook
  options: NexiOptions
  /** The `id` of the provider's entry in medusa-config. */
  entryId: string
  /** The provider as the ledger records it (`nexi_nexi`). */
  providerKey: string
  logger?: Logger
}

/** A gateway order as the storefront shows it: the hosted page, or the Build session's fields. */
interface OpenedOrder {
  securityToken: string
  language: string
  page: Pick<CardSessionData, "hosted_page" | "build_session_id" | "build_fields" | "build_sdk">
}

export class CardSessions {
  constructor(private readonly deps: CardDeps) {}

  async initiate(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    const channel = staffChannelOfContext(input.context)
    if (channel) {
      // Staff collect it through the staff pipeline; only the gateway order id is reserved here.
      const action = `start the ${STAFF_CHANNEL_NOUNS[channel]}`
      const currency = input.currency_code.toUpperCase()
      const amountMinor = minorUnitsFor(input.amount, currency, action)
      const data: StaffSessionData = {
        session_id: sessionId,
        order_id: newOrderId(this.deps.options.orderIdPrefix),
        amount_minor: amountMinor,
        currency,
        status: "pending",
        staff_channel: channel,
      }
      // Watched like a hosted order: if the charge's answer is lost, the job still finds it.
      // Until the card is charged the gateway knows no such order, which the job reads as pending.
      await this.openAttempt(
        data.order_id,
        sessionId,
        input,
        { amountMinor, currency, nextCheckAt: this.pollAfter() },
        action,
      )
      return { id: data.order_id, data, status: "pending_authorization" }
    }
    const savedCardChoice = await this.savedCardChoiceOf(() =>
      savedCardChoiceOfNewSession(
        this.deps.savedCards("start the payment"),
        input.data,
        input.context,
        this.deps.providerKey,
      ),
    )
    const data = await this.startHostedOrder(sessionId, input, savedCardChoice)
    return { id: data.order_id, data, status: "pending" }
  }

  /** A payment Medusa now holds needs no more reads from the job; a card it was to save is saved. */
  async authorize(
    raw: Record<string, unknown> | undefined,
  ): Promise<{ state: CardOrder; data: Record<string, unknown> }> {
    const { state, data } = await this.read(raw, "authorize the payment")
    const orderId = readCardSessionData(raw).order_id
    if (orderId && (state.status === "authorized" || state.status === "captured")) {
      await this.deps.ledger("authorize the payment").updateAttempt(orderId, paidWatch(new Date()))
    }
    if (orderId && raw?.[SAVE_CARD_KEY] === true) {
      const { savedCards, gateway, logger } = this.deps
      await saveCardOfPayment(savedCards("save the card"), gateway, orderId, state, logger)
    }
    return { state, data }
  }

  /** A replaced or deleted hosted order saves no card: a payment made on it is released. */
  private async dropCardToSave(orderId: string): Promise<void> {
    const book = this.deps.savedCards("replace the hosted order")
    const card = await book.findSavedCardOfOrder(orderId)
    if (card?.state === "pending") await book.updateSavedCard(card.id, { state: "failed" })
  }

  /** A hosted order cannot change: a new amount or currency needs a new one; the old one stays watched. */
  async update(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const current = readCardSessionData(input.data)
    const currency = input.currency_code.toUpperCase()
    const amountMinor = minorUnitsFor(input.amount, currency, "update the payment")
    if (current.order_id && current.amount_minor === amountMinor && current.currency === currency) {
      return { data: withoutCartContext(input.data) }
    }
    const channel = staffChannelOfSession(input.data)
    if (channel) {
      // Its gateway order may already be charged: a new amount needs a new attempt.
      const noun = STAFF_CHANNEL_NOUNS[channel]
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not update the payment: a ${noun}'s amount cannot change. Start a new ${noun}.`,
      )
    }
    const sessionId = String(current.session_id ?? input.context?.idempotency_key ?? "")
    const savedCardChoice = await this.savedCardChoiceOf(() =>
      savedCardChoiceOfSession(this.deps.savedCards("update the payment"), input.data ?? {}, current.order_id),
    )
    const data = await this.startHostedOrder(sessionId, input, savedCardChoice)
    // The old hosted page may still be open in a tab: a payment made there is released.
    await this.deps
      .ledger("update the payment")
      .supersedeAttempts(sessionId, data.order_id, "a hosted order the cart had replaced")
    if (current.order_id) await this.dropCardToSave(current.order_id)
    return { data, status: "pending" }
  }

  /** An unpaid hosted order simply expires; one paid later is released by the job or its notification. */
  async delete(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = readCardSessionData(input.data)
    if (data.session_id && data.order_id) {
      await this.deps
        .ledger("delete the payment")
        .supersedeAttempts(data.session_id, undefined, "a hosted order whose payment session was deleted")
      await this.dropCardToSave(data.order_id)
      // A payment link no session owns any more (a new link, or the order paid another way).
      if (staffChannelOfSession(input.data) === "payment_link") await this.cancelLinkOf(data.order_id)
    }
    return { data: input.data }
  }

  /** The attempt is superseded already, so a payment that still reaches the link is released. */
  private async cancelLinkOf(orderId: string): Promise<void> {
    try {
      await cancelLinkOfAttempt(
        { gateway: this.deps.gateway, ledger: this.deps.ledger("cancel the payment link") },
        orderId,
      )
    } catch (error) {
      this.deps.logger?.warn(
        `nexi: the payment link of gateway order ${orderId} could not be cancelled (${(error as Error).message}); a payment on it is released`,
      )
    }
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
      await this.deps.ledger(action).openAttempt({
        provider_identifier: this.deps.providerKey,
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
    savedCardChoice: SavedCardChoice,
  ): Promise<CardSessionData> {
    const currency = input.currency_code.toUpperCase()
    const amountMinor = minorUnitsFor(input.amount, currency, "start the payment")
    const orderId = newOrderId(this.deps.options.orderIdPrefix)
    const contractId = savedCardChoice.kind === "save" ? newContractId() : undefined
    const order: HostedOrderInput = {
      orderId,
      sessionId,
      amountMinor,
      currencyCode: currency,
      customer: input.context?.customer,
      cart: readCartContext(input.data),
      options: this.deps.options,
      entryId: this.deps.entryId,
      customerRef: this.customerRefOf(savedCardChoice, input),
      recurrence: recurrenceOf(savedCardChoice, contractId),
      requestedLanguage: input.data?.[LANGUAGE_KEY],
      wallet: walletOfSessionData(input.data, this.deps.options.wallets),
    }
    const pollAfter = this.pollAfter()
    try {
      const build = readCardSessionData(input.data)[INTEGRATION_KEY] === "build"
      if (build && savedCardChoice.kind === "pay_with") {
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `data.${INTEGRATION_KEY}: "build" has a new card typed in the checkout's fields, and a saved card (data.${PAYMENT_METHOD_KEY}) pays on the hosted page: send one of the two.`,
        )
      }
      const answer = build ? await this.openBuild(order) : await this.openHostedPage(order)
      const securityTokenHash = hashSecurityToken(answer.securityToken)
      // Recorded once the gateway answers, side by side, the token's hash with the attempt:
      // nobody can pay on a hosted page (or in a Build session's fields) before its address
      // reaches the storefront, which it does only once both records exist. An order whose answer was lost, or whose records
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
      if (savedCardChoice.kind === "save" && contractId) {
        records.push(
          this.deps.savedCards("start the payment").createSavedCard({
            provider_identifier: this.deps.providerKey,
            customer_ref: savedCardChoice.customerRef,
            customer_id: savedCardChoice.customerId,
            contract_id: contractId,
            gateway_ref: orderId,
            purpose: "checkout",
            contract_type: savedCardChoice.contractType,
          }),
        )
      }
      await Promise.all(records)
      return {
        ...withoutCartContext(input.data),
        ...sessionDataOf(savedCardChoice),
        session_id: sessionId,
        order_id: orderId,
        ...answer.page,
        // The page's language stays the session's: an update (a new amount) comes without the
        // request's headers and the cart snapshot that chose it.
        [LANGUAGE_KEY]: answer.language,
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

  private async openHostedPage(order: HostedOrderInput): Promise<OpenedOrder> {
    const request = buildHostedOrderRequest(order)
    const answer = await this.deps.gateway.createHostedOrder(request)
    const { securityToken, hostedPage } = answer
    return { securityToken, language: request.paymentSession.language, page: { hosted_page: hostedPage } }
  }

  /**
   * A Build session: its fields and the SDK's address go to the storefront; its sessionId is
   * finalized later. A wallet's session has no fields: the gateway answers its page, where the
   * shopper is sent as to a hosted page, and nothing is finalized.
   */
  private async openBuild(order: HostedOrderInput): Promise<OpenedOrder> {
    const request = buildBuildRequest(order)
    const answer = await this.deps.gateway.createBuildSession(request)
    const language = request.paymentSession.language
    if (order.wallet && answer.state === "REDIRECTED_TO_EXTERNAL_DOMAIN" && answer.url) {
      return { securityToken: answer.securityToken, language, page: { hosted_page: answer.url } }
    }
    const fields = answer.fields.map(({ id, src, type, class: className }) => ({ id, src, type, class: className }))
    if (!fields.length) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `The gateway opened Build session for order ${order.orderId} without card fields (state ${answer.state ?? "none"}).`,
      )
    }
    return {
      securityToken: answer.securityToken,
      language,
      page: {
        build_session_id: answer.sessionId,
        build_fields: fields,
        build_sdk: buildSdkUrl(this.deps.options.environment, fields[0].src),
      },
    }
  }

  /** When the reconciliation job may start reading a new order, if no notification came. */
  private pollAfter(): Date {
    return new Date(Date.now() + this.deps.options.pollPendingAfterSeconds * 1000)
  }

  /** The saved-card choice, with a refusal that names the field as Medusa's error. */
  private async savedCardChoiceOf(read: () => Promise<SavedCardChoice>): Promise<SavedCardChoice> {
    try {
      return await read()
    } catch (error) {
      throw toMedusaError(error, "start the payment")
    }
  }

  /** The gateway's customerId: the account holder's when the customer has one (saved cards belong to it). */
  private customerRefOf(
    savedCardChoice: SavedCardChoice,
    input: InitiatePaymentInput | UpdatePaymentInput,
  ): string | undefined {
    if (savedCardChoice.kind === "save") return savedCardChoice.customerRef
    if (savedCardChoice.kind === "pay_with") return savedCardChoice.card.customer_ref
    return customerRefOf((input.context as { account_holder?: unknown } | undefined)?.account_holder)
  }

  /** Reads the gateway order and folds its state into the session data. */
  async read(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: CardOrder; data: Record<string, unknown> }> {
    const data = readCardSessionData(raw)
    try {
      const orderId = requireCardField(data.order_id, "order_id", action)
      const read = readCardOrder(await this.deps.gateway.getOrder(orderId))
      const holdsLess = Boolean(data.amount_minor && BigInt(read.authorizedMinor) < BigInt(data.amount_minor))
      const state = paidInFull(read, holdsLess, "The gateway authorized less than the session amount.")
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

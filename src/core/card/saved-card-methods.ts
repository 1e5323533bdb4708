/**
 * The card provider's account holders and saved payment methods, as Medusa 2.21 calls them
 * (createAccountHolder, listPaymentMethods, savePaymentMethod, deletePaymentMethod,
 * deleteAccountHolder). An account holder is nothing at the gateway but a customerId the
 * plugin chose; its cards are contracts recorded in the plugin's module (saved-card-choice.ts).
 *
 * A deleted card's contract is ended at the gateway (POST /contracts/{contractId}/deactivation,
 * `endContract`, contract-end.ts), so the card can no longer pay even through a path that skips the plugin.
 * See docs/saved-cards.md, "Deleting a card".
 *
 * The order is what keeps a card from being hidden but alive: the deactivation is recorded first
 * (nothing recorded, nothing hidden), the card is hidden next, and only then is the gateway
 * called. A gateway that fails or loses the answer leaves the write for the reconciliation job,
 * which ends the contract of a hidden card and of nothing else (a card whose hiding failed is
 * still offered, so its contract must stay).
 *
 * The gateway takes no key for a deactivation, but deactivating an ended contract again answers
 * 200, so a lost answer is recovered by sending it again; a 404 (no such contract: a card deleted
 * before its payment or verification created it) is done too, nothing being left to end.
 */
import type {
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderInput,
  DeleteAccountHolderOutput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  Logger,
  SavePaymentMethodInput,
  SavePaymentMethodOutput,
} from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../gateway/gateway-client"
import { newOrderId } from "../../gateway/order-id"
import type { OrderDetails } from "../../gateway/schemas"
import { NotFoundError } from "../../http/errors"
import { LANGUAGE_KEY } from "../../i18n/page-language"
import type { SavedCard, SavedCardBook } from "../../modules/nexi-ledger/types"
import { isKnownCurrency } from "../../money/currencies"
import { invalidData, toMedusaError } from "../medusa-errors"
import type { NexiOptions } from "../options"
import { type CardDeps, hashSecurityToken, securityTokenMatches } from "./card-sessions"
import { deactivationOf, endContract } from "./contract-end"
import { buildHostedOrderRequest } from "./hosted-order"
import {
  contractTypeOf,
  customerRefOf,
  newContractId,
  newCustomerRef,
  outcomeOfVerification,
  settleSavedCard,
  viewOf,
} from "./saved-card-choice"

/** How many cards a customer may see; far above what anyone saves. */
const LISTED_CARDS = 50
/** Verifications the listing confirms itself (their notification may be seconds behind the shopper). */
const CONFIRMED_PER_LISTING = 3
const VERIFICATION_CONFIRM_WINDOW_MS = 24 * 60 * 60 * 1000

/** The currency of a verification: the ISO 4217 code, upper case, of a currency the gateway knows. */
export function verificationCurrency(value: unknown): string {
  const currency = String(value ?? "").toUpperCase()
  if (!isKnownCurrency(currency))
    throw invalidData("currency_code: must be the ISO 4217 code of the store's currency, such as eur.")
  return currency
}

/** Where a verification's hosted page sends the shopper back: a page of the storefront, never another site. */
export function verificationReturnUrl(options: Pick<NexiOptions, "resultUrl">, value: unknown): string {
  const storefront = new URL(options.resultUrl.replaceAll(/\{(cart_id|session_id)\}/g, ""))
  if (value === undefined) return `${storefront.origin}/`
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    throw invalidData(`return_url: must be an absolute URL of the storefront (${storefront.origin}).`)
  }
  if (url.origin !== storefront.origin)
    throw invalidData(
      `return_url: must be a page of the storefront (${storefront.origin}), the origin of the resultUrl option.`,
    )
  return url.toString()
}

/** A stored card the customer still has, or may still get once the gateway confirms it. */
const KEPT_STATES: SavedCard["state"][] = ["pending", "active", "unsupported"]

export class SavedCardMethods {
  constructor(private readonly deps: CardDeps) {}

  /** The gateway keeps no customer record: the holder is a customerId of the plugin's own, never the e-mail. */
  async createAccountHolder(_input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    const customerRef = newCustomerRef()
    return { id: customerRef, data: { customer_ref: customerRef } }
  }

  /** Every card of the holder is deleted, and its contract ended at the gateway (removeCard). */
  async deleteAccountHolder(input: DeleteAccountHolderInput): Promise<DeleteAccountHolderOutput> {
    const customerRef = customerRefOf(input.context?.account_holder)
    if (!customerRef) return { data: {} }
    const action = "delete the account holder"
    const book = this.deps.savedCards(action)
    // Once one contract could not be ended, the others are recorded and hidden without a call:
    // a gateway that is down would make the customer wait out every card's retries, and the
    // job ends the recorded contracts anyway.
    let gatewayAnswers = true
    for (const card of await book.savedCards({ customerRef, states: KEPT_STATES, limit: LISTED_CARDS })) {
      gatewayAnswers = (await this.removeCard(book, card, action, gatewayAnswers)) && gatewayAnswers
    }
    return { data: {} }
  }

  async listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    const customerRef = customerRefOf(input.context?.account_holder)
    if (!customerRef) return []
    const book = this.deps.savedCards("list the saved cards")
    await this.confirmRecentVerifications(book, customerRef)
    const cards = await book.savedCards({ customerRef, states: ["active"], limit: LISTED_CARDS })
    return cards
      .filter((card) => card.provider_identifier === this.deps.providerKey)
      .map((card) => ({ id: card.id, data: { ...viewOf(card) } }))
  }

  /**
   * Saving a card without paying: a VERIFY hosted order (nothing is charged) that creates the
   * contract. The card is pending until the gateway confirms it, by notification or when the
   * listing reads the order.
   */
  async savePaymentMethod(input: SavePaymentMethodInput): Promise<SavePaymentMethodOutput> {
    const action = "save the card"
    const customerRef = customerRefOf(input.context?.account_holder)
    if (!customerRef) throw invalidData("account_holder: only a logged-in customer can save a card.")
    const currency = verificationCurrency(input.data?.currency_code)
    const returnUrl = verificationReturnUrl(this.deps.options, input.data?.return_url)
    const book = this.deps.savedCards(action)
    const orderId = newOrderId(this.deps.options.orderIdPrefix)
    const contractId = newContractId()
    const contractType = contractTypeOf(input.data)
    const card = await book.createSavedCard({
      provider_identifier: this.deps.providerKey,
      customer_ref: customerRef,
      customer_id: input.context?.customer?.id ?? null,
      contract_id: contractId,
      gateway_ref: orderId,
      purpose: "verify",
      contract_type: contractType,
    })
    const request = buildHostedOrderRequest({
      orderId,
      sessionId: card.id,
      amountMinor: "0",
      currencyCode: currency,
      customer: input.context?.customer,
      options: this.deps.options,
      entryId: this.deps.entryId,
      customerRef,
      recurrence: { action: "CONTRACT_CREATION", contractId, contractType },
      verifyReturnUrl: returnUrl,
      requestedLanguage: input.data?.[LANGUAGE_KEY],
    })
    try {
      const answer = await this.deps.gateway.createHostedOrder(request)
      await book.updateSavedCard(card.id, { security_token_hash: hashSecurityToken(answer.securityToken) })
      return { id: card.id, data: { hosted_page: answer.hostedPage, state: "pending" } }
    } catch (error) {
      // No page, no contract: the card never shows.
      await book.updateSavedCard(card.id, { state: "failed" })
      throw toMedusaError(error, action)
    }
  }

  async deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    const action = "delete the saved card"
    const customerRef = customerRefOf(input.context?.account_holder)
    const book = this.deps.savedCards(action)
    const card = await book.findSavedCard(String(input.data?.id ?? ""))
    if (!card || !customerRef || card.customer_ref !== customerRef || card.state === "deleted") {
      throw new MedusaError(
        MedusaError.Types.NOT_FOUND,
        `id: there is no saved card ${String(input.data?.id ?? "")} for this customer.`,
      )
    }
    await this.removeCard(book, card, action)
    return { data: { id: card.id, deleted: true } }
  }

  /**
   * The deactivation is recorded, then the card hidden, then the contract ended (`endContract`, contract-end.ts):
   * the customer's delete stands once the card is hidden, whatever the gateway answers. Without
   * `send`, the ending is left to the job. True when the gateway ended the contract now.
   */
  private async removeCard(book: SavedCardBook, card: SavedCard, action: string, send = true): Promise<boolean> {
    const ledger = this.deps.ledger(action)
    // Recorded before the card is hidden: a failure here fails the delete, with the card still offered.
    try {
      await ledger.requestWrite(deactivationOf(card, "medusa"))
    } catch (error) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}: its deactivation could not be recorded in the Nexi ledger (${(error as Error).message}). The card is still saved; try again.`,
      )
    }
    await book.updateSavedCard(card.id, { state: "deleted", removed_at: new Date() })
    if (!send) return false
    return endContract({ ledger, gateway: this.deps.gateway, logger: this.deps.logger }, card, "medusa")
  }

  /** The shopper is often back on the store before the notification: recent verifications are read here. */
  private async confirmRecentVerifications(book: SavedCardBook, customerRef: string): Promise<void> {
    const since = Date.now() - VERIFICATION_CONFIRM_WINDOW_MS
    const pending = (await book.savedCards({ customerRef, states: ["pending"], limit: LISTED_CARDS }))
      .filter((card) => card.purpose === "verify" && new Date(card.created_at).getTime() >= since)
      .slice(0, CONFIRMED_PER_LISTING)
    for (const card of pending) {
      try {
        await settleSavedCard(
          book,
          this.deps.gateway,
          card,
          outcomeOfVerification(await this.deps.gateway.getOrder(card.gateway_ref)),
        )
      } catch (error) {
        // Not confirmed yet is what the shopper sees; the notification confirms it later.
        if (!(error instanceof NotFoundError))
          this.deps.logger?.warn(
            `nexi: could not read card verification ${card.gateway_ref}: ${(error as Error).message}`,
          )
      }
    }
  }
}

/**
 * A notification for a VERIFY order that saves a card: it belongs to no payment session.
 * Answers whether the order was one; a token that does not match changes nothing and reads
 * nothing from the gateway (`readOrder` is called only once the token matched).
 */
export async function handleVerificationNotification(
  { book, gateway, logger }: { book: SavedCardBook; gateway: GatewayClient; logger?: Logger },
  orderId: string,
  securityToken: unknown,
  readOrder: () => Promise<OrderDetails | undefined>,
): Promise<boolean> {
  const card = await book.findSavedCardOfOrder(orderId)
  if (card?.purpose !== "verify") return false
  if (!securityTokenMatches(securityToken, card.security_token_hash)) {
    logger?.warn(`nexi: ignored a notification for card verification ${orderId} whose security token does not match`)
    return true
  }
  const details = await readOrder()
  if (details) await settleSavedCard(book, gateway, card, outcomeOfVerification(details))
  return true
}

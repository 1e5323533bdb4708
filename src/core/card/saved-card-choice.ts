/**
 * Saved cards (card on file, docs/saved-cards.md). A registered customer's card provider
 * session may save the card (`data.save_card: true`: recurrence CONTRACT_CREATION) or pay
 * with a saved one (`data.payment_method_id`: SUBSEQUENT_PAYMENT), both cardholder-initiated
 * (contractType CIT) on the hosted page. With `data.allow_merchant_charges: true` beside
 * `save_card`, the customer consents to the shop charging the card later without them
 * (contractType MIT_UNSCHEDULED, staff/saved-card-charge.ts); the cardholder still pays with
 * it on the hosted page as CIT. The contract id pays with the card again, so it is kept in the
 * plugin's module, never in session data a storefront reads.
 */
import { randomBytes } from "node:crypto"
import type { Logger } from "@medusajs/framework/types"
import type { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../gateway/gateway-client"
import type { OrderDetails, Recurrence } from "../../gateway/schemas"
import type { PaymentLedger, SavedCard, SavedCardBook, SavedCardContractType } from "../../modules/nexi-ledger/types"
import { invalidData } from "../medusa-errors"
import { type CardInstrument, type CardOrder, readCardOrder } from "./card-order"
import { endLateContract } from "./contract-end"

export const SAVE_CARD_KEY = "save_card"
export const PAYMENT_METHOD_KEY = "payment_method_id"
export const MERCHANT_CHARGES_KEY = "allow_merchant_charges"

/** What a card session does with saved cards. */
export type SavedCardChoice =
  | { kind: "none" }
  | { kind: "save"; customerRef: string; customerId: string | null; contractType: SavedCardContractType }
  | { kind: "pay_with"; card: SavedCard }

/** What the storefront may show of a saved card: never the contract id. */
export interface SavedCardView {
  id: string
  circuit: string | null
  masked_pan: string | null
  expiry: string | null
  /** Whether the customer consented to the shop charging the card without them (MIT_UNSCHEDULED). */
  allows_merchant_charges: boolean
  created_at: string
}

export function viewOf(card: SavedCard): SavedCardView {
  return {
    id: card.id,
    circuit: card.circuit,
    masked_pan: card.masked_pan,
    expiry: card.expiry,
    allows_merchant_charges: card.contract_type === "MIT_UNSCHEDULED",
    created_at: new Date(card.created_at).toISOString(),
  }
}

/** The gateway's `customerId` of a new account holder: random, so it says nothing about the customer. */
export function newCustomerRef(): string {
  return `nxc${randomBytes(12).toString("hex")}`
}

/**
 * A contract id the merchant chooses: random (56 bits, unique in the plugin's module), and at
 * most 18 characters, as POST /orders/mit takes it: any card saved with consent is charged so.
 */
export function newContractId(): string {
  return `nxk${randomBytes(7).toString("hex")}`
}

/** The account holder's gateway customerId: Medusa's `external_id`, or the copy in its `data`. */
export function customerRefOf(accountHolder: unknown): string | undefined {
  const holder = accountHolder as { external_id?: unknown; data?: { customer_ref?: unknown } } | undefined
  const ref =
    typeof holder?.external_id === "string" && holder.external_id ? holder.external_id : holder?.data?.customer_ref
  return typeof ref === "string" && ref ? ref : undefined
}

/** One answer for an unknown card and another customer's: which ids exist is nobody else's business. */
function noSuchCard(id: string): MedusaError {
  return invalidData(`payment_method_id: there is no saved card ${id} for this customer.`)
}

/**
 * The saved card a customer may pay with: theirs, on this provider, and confirmed by the
 * gateway. Each other case is refused with what the shopper can do about it.
 */
async function cardToPayWith(
  book: SavedCardBook,
  id: string,
  customerRef: string,
  providerKey: string,
): Promise<SavedCard> {
  const card = await book.findSavedCard(id)
  if (!card || card.customer_ref !== customerRef || card.provider_identifier !== providerKey) throw noSuchCard(id)
  if (card.state === "deleted")
    throw invalidData(`payment_method_id: the saved card ${id} was deleted. Choose another card or enter a new one.`)
  if (card.state !== "active") {
    throw invalidData(
      `payment_method_id: the saved card ${id} was never confirmed by the gateway. Enter the card again.`,
    )
  }
  return card
}

/**
 * The contract a card is saved on, from the customer's choice in `data.allow_merchant_charges`
 * (a checkout's session, or "Add a card"): MIT_UNSCHEDULED with their consent to the shop
 * charging it, CIT otherwise. Anything but true or false is refused naming the field.
 */
export function contractTypeOf(data: Record<string, unknown> | undefined): SavedCardContractType {
  const consent = data?.[MERCHANT_CHARGES_KEY]
  if (consent !== undefined && typeof consent !== "boolean")
    throw invalidData(`${MERCHANT_CHARGES_KEY}: must be true or false.`)
  return consent === true ? "MIT_UNSCHEDULED" : "CIT"
}

/**
 * Reads what the storefront asked for when it created the session. `context` is Medusa's:
 * it holds an account holder only for a logged-in customer.
 */
export async function savedCardChoiceOfNewSession(
  book: SavedCardBook,
  data: Record<string, unknown> | undefined,
  context: { account_holder?: unknown; customer?: { id?: string } } | undefined,
  providerKey: string,
): Promise<SavedCardChoice> {
  const save = data?.[SAVE_CARD_KEY]
  const methodId = data?.[PAYMENT_METHOD_KEY]
  if (save !== undefined && typeof save !== "boolean") throw invalidData("save_card: must be true or false.")
  const contractType = contractTypeOf(data)
  if (contractType === "MIT_UNSCHEDULED" && save !== true) {
    throw invalidData(
      `${MERCHANT_CHARGES_KEY}: only a card being saved (save_card: true) can allow the shop to charge it later.`,
    )
  }
  if (methodId !== undefined && (typeof methodId !== "string" || !methodId.trim())) {
    throw invalidData("payment_method_id: must be the id of one of the customer's saved cards.")
  }
  if (save === true && methodId !== undefined)
    throw invalidData("save_card: cannot be combined with payment_method_id, whose card is saved already.")
  if (save !== true && methodId === undefined) return { kind: "none" }
  const customerRef = customerRefOf(context?.account_holder)
  if (!customerRef) {
    throw invalidData(
      save === true
        ? "save_card: only a logged-in customer can save a card. Log in, or pay without saving the card."
        : "payment_method_id: only a logged-in customer can pay with a saved card. Log in, or enter the card.",
    )
  }
  if (save === true) {
    return { kind: "save", customerRef, customerId: context?.customer?.id ?? null, contractType }
  }
  return { kind: "pay_with", card: await cardToPayWith(book, methodId as string, customerRef, providerKey) }
}

/**
 * The same choice when Medusa moves the session to a new hosted order (a new amount): the
 * customer was checked when the session was created; the saved card must still be usable.
 */
export async function savedCardChoiceOfSession(
  book: SavedCardBook,
  data: Record<string, unknown>,
  orderId: string | undefined,
): Promise<SavedCardChoice> {
  const methodId = data[PAYMENT_METHOD_KEY]
  if (typeof methodId === "string" && methodId) {
    const card = await book.findSavedCard(methodId)
    if (!card) throw noSuchCard(methodId)
    return { kind: "pay_with", card: await cardToPayWith(book, methodId, card.customer_ref, card.provider_identifier) }
  }
  if (data[SAVE_CARD_KEY] !== true) return { kind: "none" }
  const opened = orderId ? await book.findSavedCardOfOrder(orderId) : undefined
  if (!opened) throw invalidData("save_card: the session's card to save is not on record. Start the payment again.")
  return {
    kind: "save",
    customerRef: opened.customer_ref,
    customerId: opened.customer_id,
    contractType: opened.contract_type,
  }
}

/**
 * The hosted order's `recurrence` for a saved-card choice; undefined for an ordinary payment.
 * The cardholder paying on the hosted page is CIT, whatever the contract allows the merchant.
 */
export function recurrenceOf(choice: SavedCardChoice, contractId: string | undefined): Recurrence | undefined {
  if (choice.kind === "pay_with")
    return { action: "SUBSEQUENT_PAYMENT", contractId: choice.card.contract_id, contractType: "CIT" }
  if (choice.kind === "save") return { action: "CONTRACT_CREATION", contractId, contractType: choice.contractType }
  return undefined
}

/** Session data that tells the storefront what the session does with a saved card. */
export function sessionDataOf(choice: SavedCardChoice): Record<string, unknown> {
  if (choice.kind === "pay_with") {
    return {
      [PAYMENT_METHOD_KEY]: choice.card.id,
      saved_card: { circuit: choice.card.circuit, masked_pan: choice.card.masked_pan },
    }
  }
  if (choice.kind === "save") {
    return {
      [SAVE_CARD_KEY]: true,
      ...(choice.contractType === "MIT_UNSCHEDULED" ? { [MERCHANT_CHARGES_KEY]: true } : {}),
    }
  }
  return {}
}

/** What a gateway order says of the card it was to save. */
export interface CardOutcome {
  result: "confirmed" | "failed" | "pending"
  instrument?: CardInstrument
}

/** A payment that saves the card confirms it once authorized or captured. */
function outcomeOfPayment(state: CardOrder): CardOutcome {
  if (state.status === "authorized" || state.status === "captured")
    return { result: "confirmed", instrument: state.paymentInstrument }
  return { result: state.status === "error" || state.status === "canceled" ? "failed" : "pending" }
}

/** A verification (actionType VERIFY) moves no money: its AUTHORIZATION is EXECUTED, never AUTHORIZED. */
export function outcomeOfVerification(details: OrderDetails): CardOutcome {
  const order = readCardOrder(details)
  if (order.verification) return { result: "confirmed", instrument: order.verification.instrument }
  return outcomeOfPayment(order)
}

/**
 * Ends a pending card from what the gateway says of its order: active when the payment or
 * verification succeeded on a circuit with one-click, unsupported on a circuit without it,
 * failed when the order failed; still pending otherwise. The circuits are read only when a
 * card is to become active, so an ordinary checkout pays for no extra call.
 */
export async function settleSavedCard(
  book: SavedCardBook,
  gateway: GatewayClient,
  card: SavedCard,
  outcome: CardOutcome,
): Promise<SavedCard["state"]> {
  if (card.state === "deleted" && outcome.result === "confirmed") {
    // Deleted while the shopper was still paying or verifying: the contract the gateway made since
    // would outlive the card. The ledger module is both the book of saved cards and the ledger of writes.
    await endLateContract({ ledger: book as unknown as PaymentLedger, gateway }, card)
  }
  if (card.state !== "pending" || outcome.result === "pending") return card.state
  if (outcome.result === "failed") {
    await book.updateSavedCard(card.id, { state: "failed" })
    return "failed"
  }
  const circuit = outcome.instrument?.circuit ?? null
  const { paymentMethods } = await gateway.listPaymentMethods()
  const method = paymentMethods.find((candidate) => candidate.circuit === circuit)
  const next = method?.oneClickSupported === true ? "active" : "unsupported"
  await book.updateSavedCard(card.id, {
    state: next,
    circuit,
    masked_pan: outcome.instrument?.maskedPan ?? null,
    activated_at: next === "active" ? new Date() : null,
  })
  return next
}

/** Saving the card is the shopper's convenience: a failure to record it never fails their payment. */
export async function saveCardOfPayment(
  book: SavedCardBook,
  gateway: GatewayClient,
  orderId: string,
  state: CardOrder,
  logger?: Logger,
): Promise<void> {
  try {
    const card = await book.findSavedCardOfOrder(orderId)
    if (card) await settleSavedCard(book, gateway, card, outcomeOfPayment(state))
  } catch (error) {
    logger?.warn(`nexi: the card of gateway order ${orderId} could not be saved yet: ${(error as Error).message}`)
  }
}

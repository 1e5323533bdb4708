/**
 * A merchant-initiated charge (MIT) of a customer's saved card for what their order owes:
 * staff press "Charge saved card" on the order (POST /admin/nexi/medusa-orders/:id/saved-card-charges),
 * or another plugin calls `chargeSavedCard` (exported as `medusa-payment-nexi/saved-card-charge`,
 * for example a subscriptions module).
 *
 * Only a card the customer saved with consent to merchant charges (contract MIT_UNSCHEDULED,
 * core/card/saved-card-choice.ts) is charged: a CIT card is refused before anything is sent. The charge
 * is an attempt of the staff pipeline (order-collection.ts, channel `mit`) sent once through
 * POST /orders/mit under the attempt's gateway order id (its `chargeOnce`): idempotency key per
 * attempt, ledger write `mit_charge` recorded first, a lost answer settled by reading the
 * gateway order, a repeat finding the first charge instead of charging again. A decline marks
 * the session failed and changes nothing else in Medusa; an authorization is recorded on the
 * order's payment collection, captured as the provider's captureType says.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { invalidData } from "../core/medusa-errors"
import { cardWebhookProviderOf, storeEntryIdOf } from "../core/provider-ids"
import { STAFF_CHANNEL_NOUNS } from "../core/staff-sessions"
import { cardProviderIdOf, requireNexiOptions } from "../core/store-entries"
import type { MitRequest } from "../gateway/schemas"
import { NEXI_LEDGER_MODULE, type SavedCard, type SavedCardBook } from "../modules/nexi-ledger/types"
import { cardRequestError } from "./card-entry"
import { owedNow } from "./collection-plan"
import type { NexiSavedCardChargeOptions, NexiStaffChargeResponse } from "./contract"
import {
  chargeOnce,
  loadOrderToCollect,
  type StaffAttempt,
  staffGatewayOrder,
  startStaffAttempt,
  withCollectionLock,
} from "./order-collection"

export interface SavedCardChargeInput {
  /** The Medusa order that owes money (an order edit's difference, a claim, an exchange). */
  orderId: string
  /** The saved card to charge (nexcard_...): one of the order customer's cards that allow merchant charges. */
  paymentMethodId: string
  /** Less than the order owes, in the order currency's major units ("12.50"); all it owes when left out. */
  amount?: string
  /** Why the customer is charged, as the gateway order's description (at most 255 characters). */
  reason?: string
}

/** Only the order's own customer's card that they allowed the shop to charge; refused with what staff can do. */
export function chargeableCard(
  card: SavedCard | undefined,
  id: string,
  customerId: string | null | undefined,
  providerKey: string,
): SavedCard {
  if (!card || !customerId || card.customer_id !== customerId || card.provider_identifier !== providerKey)
    throw invalidData(`payment_method_id: there is no saved card ${id} of this order's customer.`)
  if (card.state !== "active")
    throw invalidData(`payment_method_id: the saved card ${id} is ${card.state}, not active; it cannot be charged.`)
  if (card.contract_type !== "MIT_UNSCHEDULED") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `payment_method_id: the customer saved card ${id} for paying themselves only (contract CIT), without consent to charges by the shop; nothing was charged. Ask the customer to pay, or send them a payment link.`,
    )
  }
  return card
}

export async function chargeSavedCard(
  container: MedusaContainer,
  input: SavedCardChargeInput,
): Promise<NexiStaffChargeResponse> {
  // The admin route checks it too; another plugin's call is checked here, before anything is made.
  if (input.reason !== undefined && (!input.reason.trim() || input.reason.length > 255))
    throw invalidData("reason: must be 1 to 255 characters")
  return withCollectionLock(container, input.orderId, "mit", () => chargeLocked(container, input))
}

async function chargeLocked(container: MedusaContainer, input: SavedCardChargeInput): Promise<NexiStaffChargeResponse> {
  // The card is checked before the pipeline creates anything: a CIT card changes nothing.
  const providerKey = cardWebhookProviderOf(storeEntryIdOf(await cardProviderIdOf(container)))
  const book = container.resolve<SavedCardBook>(NEXI_LEDGER_MODULE)
  const owner = await orderOwnerOf(container, input.orderId)
  const saved = chargeableCard(
    await book.findSavedCard(input.paymentMethodId),
    input.paymentMethodId,
    owner.customerId,
    providerKey,
  )
  const attempt = await startStaffAttempt(container, {
    orderId: input.orderId,
    // A draft order (a phone sale to a customer with a consented card) is charged in full and converted.
    field: owner.isDraft ? "draft_order_id" : "order_id",
    channel: "mit",
    amount: input.amount,
  })
  const request = mitRequest(container, attempt, saved, input.reason)
  return chargeOnce(container, {
    attempt,
    kind: "mit_charge",
    action: "charge the saved card",
    order: request.order,
    send: (gateway, key) => gateway.chargeContract(request, key),
    requestError: (error) => cardRequestError(error, "saved-card charge"),
    // The card staff chose, as its list showed it: the gateway's record may name it otherwise.
    cardText: () => [saved.circuit, saved.masked_pan].filter(Boolean).join(" ") || "the saved card",
    how: "",
  })
}

async function orderOwnerOf(
  container: MedusaContainer,
  orderId: string,
): Promise<{ customerId: string | null; isDraft: boolean }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "customer_id", "is_draft_order"],
    filters: { id: orderId },
  })
  const order = data[0] as { customer_id?: string | null; is_draft_order?: boolean } | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `order_id: no order ${orderId}`)
  return { customerId: order.customer_id ?? null, isDraft: order.is_draft_order === true }
}

function mitRequest(
  container: MedusaContainer,
  attempt: StaffAttempt,
  card: SavedCard,
  reason: string | undefined,
): MitRequest {
  const { order } = attempt
  return {
    order: {
      ...staffGatewayOrder(attempt, reason ?? `Charge of order ${order.display_id ?? order.id}`),
      // The contract belongs to the gateway customer that saved it, never Medusa's id.
      customerId: card.customer_ref,
    },
    contractId: card.contract_id,
    captureType: requireNexiOptions(container, attempt.providerId).captureType,
  }
}

/*
 * What "Charge saved card" offers on an order: what the order owes now (as the staff pipeline
 * would collect it, collection-plan.ts) and the order customer's saved cards that may be charged
 * (active, with consent to merchant charges). Reads only; nothing is created.
 */
const LISTED_CARDS = 50

export async function savedCardChargeOptions(
  container: MedusaContainer,
  orderId: string,
): Promise<NexiSavedCardChargeOptions> {
  const order = await loadOrderToCollect(container, orderId, "order_id")
  const providerKey = cardWebhookProviderOf(storeEntryIdOf(await cardProviderIdOf(container)))
  const book = container.resolve<SavedCardBook>(NEXI_LEDGER_MODULE)
  const cards = order.customer_id
    ? await book.savedCards({ customerId: order.customer_id, states: ["active"], limit: LISTED_CARDS })
    : []
  return {
    ...owedNow(order, STAFF_CHANNEL_NOUNS.mit),
    cards: cards
      .filter((card) => card.contract_type === "MIT_UNSCHEDULED" && card.provider_identifier === providerKey)
      .map((card) => ({ id: card.id, circuit: card.circuit, masked_pan: card.masked_pan, expiry: card.expiry })),
  }
}

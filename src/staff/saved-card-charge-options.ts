/**
 * What "Charge saved card" offers on an order: what the order owes now (as the staff pipeline
 * would collect it, collection-plan.ts) and the order customer's saved cards that may be charged
 * (active, with consent to merchant charges). Reads only; nothing is created.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { cardWebhookProviderOf, storeEntryIdOf } from "../core/provider-ids"
import { STAFF_CHANNEL_NOUNS } from "../core/staff-sessions"
import { cardProviderIdOf } from "../core/store-entries"
import { NEXI_LEDGER_MODULE, type SavedCardBook } from "../modules/nexi-ledger/types"
import { minorToMajorString, toMinorUnits } from "../money/amount"
import { planCollection } from "./collection-plan"
import type { NexiMoney, NexiSavedCardChargeOptions } from "./contract"
import { loadOrderToCollect, type OrderToCollect } from "./order-collection"

const LISTED_CARDS = 50

function owedOf(order: OrderToCollect): { owed: NexiMoney | null; refusal: string | null } {
  try {
    const plan = planCollection(order, "order_id", STAFF_CHANNEL_NOUNS.mit)
    const collection =
      plan.collection === "use" ? order.payment_collections.find((row) => row.id === plan.collectionId) : undefined
    const currency = order.currency_code.toUpperCase()
    const minor = toMinorUnits(collection?.amount ?? order.pending_difference ?? 0, currency)
    return { owed: { amount: minorToMajorString(minor, currency), currency }, refusal: null }
  } catch (error) {
    if (error instanceof MedusaError) return { owed: null, refusal: error.message }
    throw error
  }
}

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
    ...owedOf(order),
    cards: cards
      .filter((card) => card.contract_type === "MIT_UNSCHEDULED" && card.provider_identifier === providerKey)
      .map((card) => ({ id: card.id, circuit: card.circuit, masked_pan: card.masked_pan, expiry: card.expiry })),
  }
}

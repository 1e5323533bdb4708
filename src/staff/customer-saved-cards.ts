/**
 * A customer's saved cards for the admin's customer page, read from the plugin's module only
 * (no gateway call). Staff see every state, the deleted ones too, to answer a customer who
 * asks what happened to a card; never the contract id, which pays with it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { NEXI_LEDGER_MODULE, type SavedCard, type SavedCardBook } from "../modules/nexi-ledger/types"
import type { NexiCustomerSavedCard } from "./contract"

const SHOWN_CARDS = 100

function staffViewOf(card: SavedCard): NexiCustomerSavedCard {
  return {
    id: card.id,
    state: card.state,
    circuit: card.circuit,
    masked_pan: card.masked_pan,
    expiry: card.expiry,
    saved_while: card.purpose,
    created_at: new Date(card.created_at).toISOString(),
    removed_at: card.removed_at ? new Date(card.removed_at).toISOString() : null,
  }
}

export async function customerSavedCards(
  container: MedusaContainer,
  customerId: string,
): Promise<NexiCustomerSavedCard[]> {
  const book = container.resolve<SavedCardBook>(NEXI_LEDGER_MODULE)
  const cards = await book.savedCards({
    customerId,
    states: ["pending", "active", "failed", "unsupported", "deleted"],
    limit: SHOWN_CARDS,
  })
  return cards.map(staffViewOf)
}

/**
 * A customer's saved cards for the admin's customer page, read from the plugin's module only
 * (no gateway call). Staff see every state, the deleted ones too, to answer a customer who
 * asks what happened to a card, and whether a deleted card's contract is ended at the gateway;
 * never the contract id, which pays with it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  DEACTIVATION_KIND,
  NEXI_LEDGER_MODULE,
  type PaymentLedger,
  type SavedCard,
  type SavedCardBook,
} from "../modules/nexi-ledger/types"
import type { NexiCustomerSavedCard } from "./contract"

const SHOWN_CARDS = 100

/** Where the deleted card's contract deactivation stands (the write's gateway_ref is the contract id). */
async function contractEndOf(ledger: PaymentLedger, card: SavedCard): Promise<NexiCustomerSavedCard["gateway_end"]> {
  if (card.state !== "deleted") return null
  const write = (await ledger.writesOf(card.contract_id)).find((candidate) => candidate.kind === DEACTIVATION_KIND)
  if (!write) return { state: "not_requested", message: null }
  if (write.outcome === "executed") return { state: "ended", message: null }
  return { state: "pending", message: write.message }
}

function staffViewOf(card: SavedCard, contractEnd: NexiCustomerSavedCard["gateway_end"]): NexiCustomerSavedCard {
  return {
    id: card.id,
    state: card.state,
    circuit: card.circuit,
    masked_pan: card.masked_pan,
    expiry: card.expiry,
    saved_while: card.purpose,
    allows_merchant_charges: card.contract_type === "MIT_UNSCHEDULED",
    created_at: new Date(card.created_at).toISOString(),
    removed_at: card.removed_at ? new Date(card.removed_at).toISOString() : null,
    gateway_end: contractEnd,
  }
}

export async function customerSavedCards(
  container: MedusaContainer,
  customerId: string,
): Promise<NexiCustomerSavedCard[]> {
  const book = container.resolve<SavedCardBook & PaymentLedger>(NEXI_LEDGER_MODULE)
  const cards = await book.savedCards({
    customerId,
    states: ["pending", "active", "failed", "unsupported", "deleted"],
    limit: SHOWN_CARDS,
  })
  return Promise.all(cards.map(async (card) => staffViewOf(card, await contractEndOf(book, card))))
}

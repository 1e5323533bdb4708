/**
 * Ending a deleted saved card's contract at the gateway (POST /contracts/{contractId}/deactivation),
 * so the card can no longer pay even through a path that skips the plugin. See docs/saved-cards.md,
 * "Deleting a card".
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
import type { Logger } from "@medusajs/framework/types"
import type { GatewayClient } from "../../gateway/gateway-client"
import { NotFoundError } from "../../http/errors"
import {
  DEACTIVATION_KIND,
  type MoneyWrite,
  type NewWrite,
  type PaymentLedger,
  type SavedCard,
  type WriteOrigin,
} from "../../modules/nexi-ledger/types"
import { sendOnce } from "../send-once"

/** What the write's `gateway_operation_id` holds once done: the gateway names no operation for it. */
export const CONTRACT_ENDED = "deactivated"
export const NO_CONTRACT = "no_contract"

type CardOfContract = Pick<SavedCard, "id" | "contract_id">

function deactivationOf(card: CardOfContract, origin: WriteOrigin): NewWrite {
  return {
    kind: DEACTIVATION_KIND,
    // One per card: every try, by the shopper, staff or the job, is the same write.
    idempotency_key: `${card.id}:deactivation`,
    gateway_ref: card.contract_id,
    amount_minor: "0",
    currency: "",
    origin,
    medusa_ref: card.id,
  }
}

/** Recorded before the card is hidden: a failure here fails the delete, with the card still offered. */
export function recordContractEnd(
  ledger: PaymentLedger,
  card: CardOfContract,
  origin: WriteOrigin,
): Promise<MoneyWrite> {
  return ledger.requestWrite(deactivationOf(card, origin))
}

export interface ContractEndDeps {
  ledger: PaymentLedger
  gateway: GatewayClient
  logger?: Logger
}

/**
 * Sends the recorded deactivation once; true when the gateway holds no usable contract for the
 * card any more. Never throws: the card is already hidden, so a failure is the job's to retry,
 * and is logged as a warning (staff see it on the customer's saved cards).
 */
export async function endContract(deps: ContractEndDeps, card: CardOfContract, origin: WriteOrigin): Promise<boolean> {
  const send = async (): Promise<string> => {
    try {
      await deps.gateway.deactivateContract(card.contract_id)
      return CONTRACT_ENDED
    } catch (error) {
      if (error instanceof NotFoundError) return NO_CONTRACT
      throw error
    }
  }
  try {
    await sendOnce({
      ledger: deps.ledger,
      write: deactivationOf(card, origin),
      label: `deactivation of saved card ${card.id}`,
      action: "end the saved card's contract",
      send,
      // Sending again is how a lost answer is found: a second deactivation answers as the first.
      recover: { find: send, refusalMayMeanMade: false, whenUnreadable: "wait" },
    })
    return true
  } catch (error) {
    deps.logger?.warn(
      `nexi: the contract of deleted saved card ${card.id} is not ended at the gateway yet; the reconciliation job tries again every minute: ${(error as Error).message}`,
    )
    return false
  }
}

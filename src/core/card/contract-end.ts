/**
 * Ends a deleted saved card's contract at the gateway, through the one sender: the write is
 * recorded before it is sent, and a lost answer is found by sending again (a second
 * deactivation answers as the first).
 *
 * A card can be deleted while its contract is still being made (the shopper on the hosted page,
 * a verification under way): the deactivation then finds no contract. The contract the gateway
 * makes after is ended by a second write, sent when the card's order is found paid or verified
 * (saved-card-choice.ts, settleSavedCard).
 */
import type { Logger } from "@medusajs/framework/types"
import type { GatewayClient } from "../../gateway/gateway-client"
import { NotFoundError } from "../../http/errors"
import {
  DEACTIVATION_KIND,
  type NewWrite,
  type PaymentLedger,
  type SavedCard,
  type WriteOrigin,
} from "../../modules/nexi-ledger/types"
import { BySendingAgain, sendOnce } from "../send-once"

/** What the write's `gateway_operation_id` holds once done: the gateway names no operation for it. */
const CONTRACT_ENDED = "deactivated"
const NO_CONTRACT = "no_contract"

type CardOfContract = Pick<SavedCard, "id" | "contract_id">

/** The key of a card's deactivation: every try, by the shopper, staff or the job, is the same write. */
export const deactivationKey = (card: Pick<SavedCard, "id">) => `${card.id}:deactivation`
/** The key of the deactivation of a contract the gateway made after its card was deleted. */
const lateDeactivationKey = (card: Pick<SavedCard, "id">) => `${card.id}:deactivation-of-late-contract`

export function deactivationOf(
  card: CardOfContract,
  origin: WriteOrigin,
  idempotencyKey = deactivationKey(card),
): NewWrite {
  return {
    kind: DEACTIVATION_KIND,
    idempotency_key: idempotencyKey,
    gateway_ref: card.contract_id,
    amount_minor: "0",
    currency: "",
    origin,
    medusa_ref: card.id,
  }
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
export async function endContract(
  deps: ContractEndDeps,
  card: CardOfContract,
  origin: WriteOrigin,
  idempotencyKey = deactivationKey(card),
): Promise<boolean> {
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
      write: deactivationOf(card, origin, idempotencyKey),
      label: `deactivation of saved card ${card.id}`,
      action: "end the saved card's contract",
      send,
      recover: new BySendingAgain(send),
    })
    return true
  } catch (error) {
    deps.logger?.warn(
      `nexi: the contract of deleted saved card ${card.id} is not ended at the gateway yet; the reconciliation job tries again every minute: ${(error as Error).message}`,
    )
    return false
  }
}

/**
 * Ends the contract the gateway made after its card was deleted, once the card's order is paid
 * or verified: only when the card's deactivation found no contract (a card ended before is left).
 */
export async function endLateContract(deps: ContractEndDeps, card: CardOfContract): Promise<void> {
  const deactivation = (await deps.ledger.writesOf(card.contract_id)).find(
    (write) => write.idempotency_key === deactivationKey(card),
  )
  if (deactivation?.outcome !== "executed" || deactivation.gateway_operation_id !== NO_CONTRACT) return
  await endContract(deps, card, deactivation.origin, lateDeactivationKey(card))
}

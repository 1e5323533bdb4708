/**
 * The job's retry of deleted saved cards' contract deactivations the gateway has not confirmed
 * (contract-end.ts): the gateway failed, refused or lost the answer, or the process stopped
 * mid-call. A budget of its own, after the payments, so they never wait behind it.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { endContract } from "../core/card/contract-end"
import { STALE_REQUEST_MS } from "../core/send-once"
import { gatewayClientFor, ledgerOf } from "../core/store-entries"
import {
  DEACTIVATION_KIND,
  type MoneyWrite,
  type PaymentLedger,
  type SavedCardBook,
} from "../modules/nexi-ledger/types"

/** Deactivations one run sends at most: each is one gateway call (two after a lost answer). */
export const DEACTIVATIONS_PER_RUN = 10

export interface ContractEndsSummary {
  ended: number
  pending: number
}

/**
 * A card whose hiding failed after its deactivation was recorded is still offered to the
 * customer: its contract must stay. The write says so, and a later delete sends it.
 */
async function cardStillSaved(ledger: PaymentLedger, write: MoneyWrite): Promise<void> {
  await ledger.settleWrite(write.idempotency_key, {
    outcome: "refused",
    message: "not sent: the card was not deleted, so it stays usable at the gateway",
  })
}

/** `providerOf` names the store's provider that opened the card (the ledger records its key). */
export async function retryContractEnds(
  container: MedusaContainer,
  providerOf: (recorded: string) => string | undefined,
  now = new Date(),
): Promise<ContractEndsSummary> {
  const ledger = ledgerOf(container)
  const book = ledger as unknown as SavedCardBook
  const logger = container.resolve<Logger>("logger")
  const summary: ContractEndsSummary = { ended: 0, pending: 0 }
  const olderThan = new Date(now.getTime() - STALE_REQUEST_MS)
  const writes = await ledger.writesToRetry(DEACTIVATION_KIND, olderThan, DEACTIVATIONS_PER_RUN, { refused: true })
  for (const write of writes) {
    const card = write.medusa_ref ? await book.findSavedCard(write.medusa_ref) : undefined
    if (card?.state !== "deleted") {
      await cardStillSaved(ledger, write)
      continue
    }
    const providerId = providerOf(card.provider_identifier)
    if (!providerId) {
      summary.pending += 1
      const message = `no provider ${card.provider_identifier} is configured to send it`
      // Settled with the reason, which also puts it behind the others for the next run.
      await ledger.settleWrite(write.idempotency_key, { message })
      logger.warn(`nexi: cannot end the contract of deleted saved card ${card.id}: ${message}`)
      continue
    }
    const gateway = gatewayClientFor(container, providerId)
    // endContract logs a failure itself, and leaves the write for the next run.
    if (await endContract({ ledger, gateway, logger }, card, write.origin)) summary.ended += 1
    else summary.pending += 1
  }
  return summary
}

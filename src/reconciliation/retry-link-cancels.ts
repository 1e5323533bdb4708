/**
 * The job's retry of payment link cancels whose outcome stayed unknown: the gateway could not be
 * reached even to cancel again, or the process stopped mid-call. Until the gateway cancels it,
 * the link can still be paid (a payment that comes is released: its attempt was superseded
 * before the cancel was sent), so the job sends the cancel again, within a budget of its own.
 * A cancel the gateway refuses (the link was paid meanwhile) is settled refused and left to the
 * sync, which releases that payment.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { cancelLinkOnce } from "../core/card/payment-links"
import { STALE_REQUEST_MS } from "../core/send-once"
import { gatewayClientFor, ledgerOf } from "../core/store-entries"
import { InvalidRequestError } from "../http/errors"
import { LINK_CANCELLATION_KIND } from "../modules/nexi-ledger/types"

/** Cancels one run sends at most: each is one gateway call (two when the first answer is lost). */
export const LINK_CANCELS_PER_RUN = 10

export interface LinkCancelsSummary {
  cancelled: number
  pending: number
}

/** `providerOf` names the store's provider that opened the link's attempt (the ledger records its key). */
export async function retryLinkCancels(
  container: MedusaContainer,
  providerOf: (recorded: string) => string | undefined,
  now = new Date(),
): Promise<LinkCancelsSummary> {
  const ledger = ledgerOf(container)
  const logger = container.resolve<Logger>("logger")
  const summary: LinkCancelsSummary = { cancelled: 0, pending: 0 }
  const olderThan = new Date(now.getTime() - STALE_REQUEST_MS)
  const writes = await ledger.writesToRetry(LINK_CANCELLATION_KIND, olderThan, LINK_CANCELS_PER_RUN)
  for (const write of writes) {
    const attempt = await ledger.findAttempt(write.gateway_ref)
    const providerId = attempt && providerOf(attempt.provider_identifier)
    if (!providerId || !write.target_ref) {
      summary.pending += 1
      const message = `no configured provider opened gateway order ${write.gateway_ref}`
      // Settled with the reason, which also puts it behind the others for the next run.
      await ledger.settleWrite(write.idempotency_key, { message })
      logger.warn(`nexi: cannot cancel payment link ${write.target_ref}: ${message}`)
      continue
    }
    const link = {
      link_id: write.target_ref,
      gateway_order_id: write.gateway_ref,
      amount_minor: write.amount_minor,
      currency: write.currency,
    }
    try {
      await cancelLinkOnce({ gateway: gatewayClientFor(container, providerId), ledger }, link)
      summary.cancelled += 1
    } catch (error) {
      // Refused: the gateway says the link was paid; the write is settled and its payment is the sync's.
      if (error instanceof InvalidRequestError) continue
      summary.pending += 1
      logger.warn(`nexi: could not cancel payment link ${link.link_id} yet: ${(error as Error).message}`)
    }
  }
  return summary
}

/**
 * The job's retry of mobile payment starts nothing watches (core/mobile/payment-start.ts): the
 * shopper may approve such a payment in the app although no session points at it. One whose
 * answer was lost is sent again under its key; one made whose attempt was never recorded (the
 * ledger failed, or the process stopped, right after the answer) needs no call. Either way the
 * transaction is watched from then on like any other no session owns: reversed while it waits,
 * given back if paid. A budget of its own, after the payments.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { paymentStartsFor } from "../core/mobile/apm-transactions"
import { STALE_REQUEST_MS } from "../core/send-once"
import { ledgerOf } from "../core/store-entries"
import { PAYMENT_START_KIND } from "../modules/nexi-ledger/types"

/** Starts one run sends again at most: each is one call to the service (two after a lost answer). */
export const PAYMENT_STARTS_PER_RUN = 10
const UNWATCHED_WITHIN_MS = 24 * 60 * 60 * 1000

export interface PaymentStartsSummary {
  /** Transactions found, now watched. */
  found: number
  /** Never made: refused by the service. */
  refused: number
  pending: number
}

/** `providerOf` names the store's provider that sent the start (the write records its key). */
export async function retryPaymentStarts(
  container: MedusaContainer,
  providerOf: (recorded: string) => string | undefined,
  now = new Date(),
): Promise<PaymentStartsSummary> {
  const ledger = ledgerOf(container)
  const logger = container.resolve<Logger>("logger")
  const summary: PaymentStartsSummary = { found: 0, refused: 0, pending: 0 }
  const olderThan = new Date(now.getTime() - STALE_REQUEST_MS)
  const lost = await ledger.writesToRetry(PAYMENT_START_KIND, olderThan, PAYMENT_STARTS_PER_RUN)
  // A watch gives up after a day: a start older than that is past any approval.
  const since = new Date(now.getTime() - UNWATCHED_WITHIN_MS)
  // Each costs the ledger only: its transaction is known.
  const unwatched = await ledger.startsUnwatched(since, olderThan, PAYMENT_STARTS_PER_RUN)
  for (const write of [...lost, ...unwatched]) {
    const recorded = write.resend?.provider_identifier ?? "(none recorded)"
    const providerId = providerOf(recorded)
    try {
      if (!providerId) throw new Error(`no provider ${recorded} is configured to send it`)
      if (await paymentStartsFor(container, providerId).recover(write)) summary.found += 1
      else summary.refused += 1
    } catch (error) {
      summary.pending += 1
      // Settled with the reason, which also puts it behind the others for the next run.
      await ledger.settleWrite(write.idempotency_key, { message: (error as Error).message })
      logger.warn(
        `nexi: could not yet find the mobile payment started for session ${write.medusa_ref}: ${(error as Error).message}`,
      )
    }
  }
  return summary
}

/**
 * Reads again, from the gateway, what the ledger says is not settled yet, and applies what it
 * finds: gateway orders and mobile transactions still pending (a payment whose notification
 * never came; every mobile payment, whose service sends none), orders no live session owns
 * any more (released if paid), writes whose answer was lost, and mobile refunds still being
 * followed; with the reads left, paid orders due for another look (what the back office did
 * whose notification was lost); then deleted cards' contracts and payment links still to cancel
 * at the gateway.
 * Each run makes at most READS_PER_RUN gateway reads for the payments. See docs/ledger.md.
 */

import { randomUUID } from "node:crypto"
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { watchPaid } from "../core/attempt-watch"
import { cardSyncFor } from "../core/card/card-sync"
import type { SyncOutcome } from "../core/medusa-payments"
import { mobileSyncFor } from "../core/mobile/mobile-sync"
import { apmMethodOfProvider, isNexiProviderId } from "../core/provider-ids"
import { STALE_REQUEST_MS } from "../core/send-once"
import { ledgerOf } from "../core/store-entries"
import { isOrphaned, type PaymentLedger } from "../modules/nexi-ledger/types"
import { retrySideWrites, type SideRetriesSummary } from "./side-retries"

/** Gateway reads one run may make; what is left waits for the next run. */
export const READS_PER_RUN = 100
/** A sync reads the order once, and once more when Medusa authorizes the payment it completes. */
const READS_PER_RECONCILE = 2
const LOCK_KEY = "nexi:reconcile-pending-sessions"

/** The one sync of a payment, whichever Nexi provider (`pp_nexi_nexi`, `pp_nexi-apm-psp-b_nexi`) it is of. */
export interface PaymentSync {
  session(sessionId: string): Promise<SyncOutcome>
  attempt(gatewayRef: string): Promise<SyncOutcome>
}

export type SyncOf = (container: MedusaContainer, providerId: string) => PaymentSync

const paymentSyncFor: SyncOf = (container, providerId) => {
  const method = apmMethodOfProvider(providerId)
  return method ? mobileSyncFor(container, providerId, method) : cardSyncFor(container, providerId)
}

/** The payments read, by outcome, then the side writes sent again (side-retries.ts). */
export interface ReconcileSummary extends SideRetriesSummary {
  checked: number
  outcomes: Partial<Record<SyncOutcome | "failed", number>>
}

/** Syncs one session now; used by the storefront's status route and the admin's sync. */
export function reconcileSession(
  container: MedusaContainer,
  session: { id: string; provider_id: string },
  syncOf: SyncOf = paymentSyncFor,
): Promise<SyncOutcome> {
  return syncOf(container, session.provider_id).session(session.id)
}

/** Syncs one mobile transaction now, as the job does (its writes, then the payment); used by the admin's sync. */
export function reconcileTransaction(
  container: MedusaContainer,
  providerId: string,
  transactionId: string,
  syncOf: SyncOf = paymentSyncFor,
): Promise<SyncOutcome> {
  return syncOf(container, providerId).attempt(transactionId)
}

/**
 * The gateway refs the run should read, without repeats: those of writes to settle (the
 * ledger lists orphans last) in at most half of the budget when attempts are due, then due
 * attempts: writes the job cannot settle (an orphan Medusa cannot record) never starve the
 * payments waiting to be read. Paid orders due for another look take what is left.
 */
async function candidates(ledger: PaymentLedger, now: Date, limit: number): Promise<string[]> {
  const writes = await ledger.writesToSettle(new Date(now.getTime() - STALE_REQUEST_MS), limit)
  const attemptRefs = unique((await ledger.dueAttempts(now, limit)).map((attempt) => attempt.gateway_ref))
  const writeRefs = unique(writes.map((write) => write.gateway_ref))
  const writeShare = Math.max(Math.ceil(limit / 2), limit - attemptRefs.length)
  const refs = unique([...writeRefs.slice(0, writeShare), ...attemptRefs]).slice(0, limit)
  const left = limit - refs.length
  const paidRefs = left > 0 ? (await ledger.paidAttemptsDue(now, left)).map((attempt) => attempt.gateway_ref) : []
  return unique([...refs, ...paidRefs]).slice(0, limit)
}

function unique(refs: string[]): string[] {
  return [...new Set(refs)]
}

/**
 * An orphan still unclaimed after its order was read goes behind the others (the ledger lists
 * orphans least recently touched first), so every orphan is read in turn and says when.
 */
async function requeueOrphans(ledger: PaymentLedger, ref: string, now: Date): Promise<void> {
  for (const write of (await ledger.writesOf(ref)).filter(isOrphaned)) {
    await ledger.updateWrite(write.idempotency_key, {
      message: `no Medusa record claims it yet (read ${now.toISOString()})`,
    })
  }
}

/**
 * The store's provider that opened an attempt: the ledger records its key (`nexi_nexi-it`);
 * an attempt that names only the identifier (`nexi`) goes to that identifier's first entry.
 */
function providerFor(providerIds: string[], recorded: string): string | undefined {
  const exact = providerIds.find((id) => id === `pp_${recorded}`)
  return exact ?? providerIds.find((id) => id.startsWith(`pp_${recorded}_`))
}

export async function reconcilePendingSessions(
  container: MedusaContainer,
  now = new Date(),
  syncOf: SyncOf = paymentSyncFor,
): Promise<ReconcileSummary> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const ledger = ledgerOf(container)
  const logger = container.resolve("logger")
  const summary: ReconcileSummary = { checked: 0, outcomes: {} }
  const providerIds = (await payment.listPaymentProviders({})).map((provider) => provider.id).filter(isNexiProviderId)
  if (!providerIds.length) return summary

  const refs = await candidates(ledger, now, Math.floor(READS_PER_RUN / READS_PER_RECONCILE))
  for (const ref of refs) {
    const attempt = await ledger.findAttempt(ref)
    // Its next look is set before this one: a paid order that cannot be read waits its turn again.
    if (attempt?.state === "paid" && attempt.next_check_at && attempt.next_check_at <= now)
      await ledger.updateAttempt(ref, watchPaid(attempt, now))
    const provider = attempt && providerFor(providerIds, attempt.provider_identifier)
    if (!provider) continue
    summary.checked += 1
    try {
      const outcome = await syncOf(container, provider).attempt(ref)
      await requeueOrphans(ledger, ref, now)
      // Counted once the whole ref is done, so a ref is either an outcome or a failure.
      summary.outcomes[outcome] = (summary.outcomes[outcome] ?? 0) + 1
    } catch (error) {
      // One unreachable payment must not stop the others; it is tried again next run.
      summary.outcomes.failed = (summary.outcomes.failed ?? 0) + 1
      logger.warn(`nexi: could not reconcile gateway payment ${ref}: ${(error as Error).message}`)
    }
  }
  // After the payments: none of these writes moves money.
  Object.assign(summary, await retrySideWrites(container, (recorded) => providerFor(providerIds, recorded), now))
  return summary
}

/**
 * Runs the reconciliation on one instance per interval: the lock is taken with an expiry just
 * under the schedule's interval and is not released, so other instances skip this interval.
 */
export async function reconcileOncePerInterval(
  container: MedusaContainer,
  intervalSeconds: number,
): Promise<ReconcileSummary | undefined> {
  const locking = container.resolve(Modules.LOCKING)
  try {
    await locking.acquire(LOCK_KEY, { ownerId: randomUUID(), expire: Math.max(1, intervalSeconds - 5) })
  } catch {
    return undefined
  }
  return reconcilePendingSessions(container)
}

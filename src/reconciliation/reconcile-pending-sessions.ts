/**
 * Re-reads from the gateway the Nexi payment sessions that are still pending, and applies
 * what it finds, so a payment whose notification never came (the gateway promises no
 * retries) or a mobile payment (whose service sends none) still completes its cart.
 */
import { randomUUID } from "node:crypto"
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { isNexiProviderId } from "../providers/nexi/shared/provider-ids"
import { reconcileRequest } from "../providers/nexi/shared/reconcile-request"
import { type AppliedOutcome, applyPaymentAction } from "./apply-payment-action"

/** Sessions read per run; the rest wait for the next run, oldest first. */
export const MAX_SESSIONS_PER_RUN = 50
/** Sessions older than this are left alone: hosted pages and app approvals expire long before. */
export const MAX_SESSION_AGE_MS = 24 * 60 * 60 * 1000
const LOCK_KEY = "nexi:reconcile-pending-sessions"

export interface ReconcileSummary {
  checked: number
  outcomes: Partial<Record<AppliedOutcome | "failed", number>>
}

/** The session's own "poll after" time (set by its provider), or its creation time. */
function dueAt(session: { data?: Record<string, unknown> | null; created_at?: Date | string }): number {
  const pollAfter = session.data?.poll_after
  return Date.parse(typeof pollAfter === "string" ? pollAfter : String(session.created_at ?? 0))
}

/** Reconciles one session now; used by the job and by the storefront's status route. */
export async function reconcileSession(container: MedusaContainer, session: { id: string; provider_id: string }) {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const result = await payment.getWebhookActionAndData({
    provider: session.provider_id.replace(/^pp_/, ""),
    payload: reconcileRequest(session.id),
  })
  return applyPaymentAction(container, result, { includeSuccess: true })
}

export async function reconcilePendingSessions(container: MedusaContainer, now = new Date()): Promise<ReconcileSummary> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const providers = (await payment.listPaymentProviders({})).map((provider) => provider.id).filter(isNexiProviderId)
  const summary: ReconcileSummary = { checked: 0, outcomes: {} }
  if (!providers.length) return summary

  // The module filters on any column; its filter type just does not list `status`.
  const filters = {
    provider_id: providers,
    status: ["pending"],
    created_at: { $gte: new Date(now.getTime() - MAX_SESSION_AGE_MS).toISOString() },
  } as Parameters<IPaymentModuleService["listPaymentSessions"]>[0]
  const candidates = await payment.listPaymentSessions(
    filters,
    { select: ["id", "provider_id", "data", "created_at"], order: { created_at: "ASC" }, take: MAX_SESSIONS_PER_RUN * 4 },
  )
  const due = candidates.filter((session) => dueAt(session) <= now.getTime()).slice(0, MAX_SESSIONS_PER_RUN)
  const logger = container.resolve("logger")
  for (const session of due) {
    summary.checked += 1
    try {
      const outcome = await reconcileSession(container, session)
      summary.outcomes[outcome] = (summary.outcomes[outcome] ?? 0) + 1
    } catch (error) {
      // One unreachable payment must not stop the others; it is tried again next run.
      summary.outcomes.failed = (summary.outcomes.failed ?? 0) + 1
      logger.warn(`nexi: could not reconcile payment session ${session.id}: ${(error as Error).message}`)
    }
  }
  return summary
}

/**
 * Runs the reconciliation on one instance per interval: the lock is taken with an expiry just
 * under the schedule's interval and is not released, so other instances skip this interval.
 */
export async function reconcileOncePerInterval(container: MedusaContainer, intervalSeconds: number): Promise<ReconcileSummary | undefined> {
  const locking = container.resolve(Modules.LOCKING)
  try {
    await locking.acquire(LOCK_KEY, { ownerId: randomUUID(), expire: Math.max(1, intervalSeconds - 5) })
  } catch {
    return undefined
  }
  return reconcilePendingSessions(container)
}

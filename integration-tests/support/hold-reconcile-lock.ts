/**
 * Keeps the plugin's scheduled reconciliation job (src/jobs/nexi-reconcile-pending-payments.ts)
 * from running while a suite drives reconcilePendingSessions itself: the job runs only on the
 * instance that takes its lock for the interval, so the suite takes it, as another instance
 * would. A suite that counts the job's gateway reads, or expects its own run to be the one that
 * settles a write, needs the scheduled run out of the way.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

const LOCK_KEY = "nexi:reconcile-pending-sessions"

/** Takes the job's lock for `seconds`, waiting for a scheduled run that holds it now to expire. */
export async function holdReconcileLock(container: MedusaContainer, ownerId: string, seconds = 900): Promise<void> {
  const locking = container.resolve(Modules.LOCKING)
  const deadline = Date.now() + 70_000
  for (;;) {
    try {
      await locking.acquire(LOCK_KEY, { ownerId, expire: seconds })
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  }
}

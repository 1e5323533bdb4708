import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { type ReconcileSummary, reconcileOncePerInterval } from "../reconciliation/reconcile-pending-sessions"

const INTERVAL_SECONDS = 60

/** What a run did, a line for each kind of work it found; nothing when it found none. */
export function summaryLines(summary: ReconcileSummary | undefined): string[] {
  if (!summary) return []
  const { checked, outcomes, contractEnds, linkCancels, paymentStarts } = summary
  return [
    checked && `reconciled ${checked} pending payment(s): ${JSON.stringify(outcomes)}`,
    contractEnds &&
      `deleted saved cards' contracts: ${contractEnds.ended} ended at the gateway, ${contractEnds.pending} still to end`,
    linkCancels &&
      `payment links: ${linkCancels.cancelled} cancelled at the gateway, ${linkCancels.pending} still to cancel`,
    paymentStarts &&
      `mobile payment starts: ${paymentStarts.found} found, ${paymentStarts.refused} never made, ${paymentStarts.pending} still to find`,
  ].filter((line): line is string => Boolean(line))
}

export default async function nexiReconcilePendingPayments(container: MedusaContainer) {
  const summary = await reconcileOncePerInterval(container, INTERVAL_SECONDS)
  const logger = container.resolve<Logger>("logger")
  for (const line of summaryLines(summary)) logger.info(`nexi: ${line}`)
}

export const config = {
  name: "nexi-reconcile-pending-payments",
  schedule: "* * * * *",
}

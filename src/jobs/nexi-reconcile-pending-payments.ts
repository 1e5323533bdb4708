import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { reconcileOncePerInterval } from "../reconciliation/reconcile-pending-sessions"

const INTERVAL_SECONDS = 60

export default async function nexiReconcilePendingPayments(container: MedusaContainer) {
  const summary = await reconcileOncePerInterval(container, INTERVAL_SECONDS)
  const logger = container.resolve<Logger>("logger")
  if (summary?.checked) {
    logger.info(`nexi: reconciled ${summary.checked} pending payment(s): ${JSON.stringify(summary.outcomes)}`)
  }
  if (summary?.contractEnds) {
    const { ended, pending } = summary.contractEnds
    logger.info(`nexi: deleted saved cards' contracts: ${ended} ended at the gateway, ${pending} still to end`)
  }
  if (summary?.linkCancels) {
    const { cancelled, pending } = summary.linkCancels
    logger.info(`nexi: payment links: ${cancelled} cancelled at the gateway, ${pending} still to cancel`)
  }
}

export const config = {
  name: "nexi-reconcile-pending-payments",
  schedule: "* * * * *",
}

import type { MedusaContainer } from "@medusajs/framework/types"
import { reconcileOncePerInterval } from "../reconciliation/reconcile-pending-sessions"

const INTERVAL_SECONDS = 60

export default async function nexiReconcilePendingPayments(container: MedusaContainer) {
  const summary = await reconcileOncePerInterval(container, INTERVAL_SECONDS)
  if (summary?.checked) {
    container
      .resolve("logger")
      .info(`nexi: reconciled ${summary.checked} pending payment(s): ${JSON.stringify(summary.outcomes)}`)
  }
  if (summary?.contractEnds) {
    const { ended, pending } = summary.contractEnds
    container
      .resolve("logger")
      .info(`nexi: deleted saved cards' contracts: ${ended} ended at the gateway, ${pending} still to end`)
  }
  if (summary?.linkCancels) {
    const { cancelled, pending } = summary.linkCancels
    container
      .resolve("logger")
      .info(`nexi: payment links: ${cancelled} cancelled at the gateway, ${pending} still to cancel`)
  }
}

export const config = {
  name: "nexi-reconcile-pending-payments",
  schedule: "* * * * *",
}

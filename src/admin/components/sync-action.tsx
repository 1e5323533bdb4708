/**
 * "Sync from gateway": re-reads the payment at Nexi now and records in Medusa what the gateway
 * did that Medusa missed (a lost notification, a refund made in Nexi's back office).
 */
import { ArrowPath } from "@medusajs/icons"
import { Button } from "@medusajs/ui"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { ActionPrompt } from "./action-prompt"
import { usePaymentAction } from "./use-payment-action"

export function SyncAction(props: { paymentId: string; onDone: (message: string) => void }) {
  const action = usePaymentAction(props.onDone)
  return (
    <>
      <Button size="small" variant="secondary" onClick={() => action.onOpenChange(true)} data-testid="nexi-sync">
        <ArrowPath />
        Sync from gateway
      </Button>
      <ActionPrompt
        open={action.open}
        onOpenChange={action.onOpenChange}
        title="Sync from gateway"
        description="Read this payment at Nexi now and record in Medusa whatever Medusa has not seen yet, such as a missed notification or a refund made in Nexi's back office."
        confirmLabel="Sync"
        dismissLabel="Close"
        confirmTestId="nexi-sync-confirm"
        variant="confirmation"
        busy={action.busy}
        error={action.error}
        onConfirm={() => void action.run(() => nexiAdminApi.sync(props.paymentId))}
      />
    </>
  )
}

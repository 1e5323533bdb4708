/**
 * "Capture…": captures part or all of an authorized card payment through Medusa's capture
 * route, which records the capture on the payment and has the plugin capture exactly that
 * amount at Nexi. Medusa 2.21's own "Capture payment" button always captures everything.
 */
import type { NexiMoney } from "../../staff/contract"
import { formatMoney } from "../lib/money"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { AmountAction } from "./amount-action"

export function CaptureAction(props: {
  paymentId: string
  authorized: NexiMoney
  remainder: NexiMoney
  onDone: (message: string) => void
}) {
  return (
    <AmountAction
      verb="capture"
      testId="nexi-capture"
      title="Capture payment"
      description="Take part or all of the authorized amount from the card at Nexi; Medusa records the capture on this payment. Nexi accepts one capture per authorization, so what is not captured now cannot be captured later unless this capture is cancelled."
      remainder={props.remainder}
      hint={`Authorized at Nexi: ${formatMoney(props.authorized)}. Up to ${formatMoney(props.remainder)} can be captured.`}
      send={async ({ amount, money }) => {
        await nexiAdminApi.capture(props.paymentId, { amount })
        return `Captured ${formatMoney(money)} at Nexi; Medusa recorded the capture. Reload the order to see it in Medusa's Payments section.`
      }}
      onDone={props.onDone}
    />
  )
}

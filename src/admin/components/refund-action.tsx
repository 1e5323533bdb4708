/**
 * "Refund…": refunds part or all of what is captured through Medusa's refund route, which
 * records the refund on the payment and the order and has the plugin refund exactly that
 * amount at Nexi. Medusa 2.21's own refund stays disabled after a partial capture.
 */
import { Label, Textarea } from "@medusajs/ui"
import { useId, useState } from "react"
import type { NexiMoney } from "../../staff/contract"
import { formatMoney } from "../lib/money"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { AmountAction } from "./amount-action"

export function RefundAction(props: {
  paymentId: string
  captured: NexiMoney
  refunded: NexiMoney
  remainder: NexiMoney
  onDone: (message: string) => void
}) {
  const [note, setNote] = useState("")
  const noteId = useId()
  return (
    <AmountAction
      verb="refund"
      testId="nexi-refund"
      title="Refund payment"
      description="Give part or all of the captured amount back to the card at Nexi; Medusa records the refund on this payment and the order."
      remainder={props.remainder}
      hint={`Captured at Nexi: ${formatMoney(props.captured)}, refunded: ${formatMoney(props.refunded)}. Up to ${formatMoney(props.remainder)} can be refunded.`}
      onOpen={() => setNote("")}
      send={async ({ amount, money }) => {
        const trimmed = note.trim()
        await nexiAdminApi.refund(props.paymentId, { amount, ...(trimmed ? { note: trimmed } : {}) })
        return `Refunded ${formatMoney(money)} to the card at Nexi; Medusa recorded the refund. Reload the order to see it in Medusa's Payments section.`
      }}
      onDone={props.onDone}
    >
      <div className="flex flex-col gap-y-2">
        <Label htmlFor={noteId} size="small" weight="plus">
          Note (optional)
        </Label>
        <Textarea
          id={noteId}
          value={note}
          placeholder="Why the money goes back (kept on Medusa's refund)"
          onChange={(event) => setNote(event.target.value)}
          data-testid="nexi-refund-note"
        />
      </div>
    </AmountAction>
  )
}

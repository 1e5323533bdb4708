/**
 * "Charge saved card" in the order's Nexi section: when the order owes money and its customer
 * saved a card allowing the shop to charge it, staff pick the card, keep the amount owed or type
 * less, and confirm (POST /admin/nexi/medusa-orders/:id/saved-card-charges). The route decides
 * and says why it refuses; the dialog shows a refusal or a decline where staff are looking, and
 * the widget's notice shows the charge at once.
 */
import { Button, Input, Label, Text } from "@medusajs/ui"
import { useId, useState } from "react"
import { formatMoney } from "../lib/money"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { useAdminQuery } from "../lib/use-admin-query"
import { ActionPrompt } from "./action-prompt"
import { usePaymentAction } from "./use-payment-action"

export function SavedCardChargeSection({ orderId, onDone }: { orderId: string; onDone: (message: string) => void }) {
  const options = useAdminQuery(orderId, () => nexiAdminApi.savedCardChargeOptions(orderId))
  const action = usePaymentAction((message) => {
    onDone(message)
    options.reload()
  })
  const [cardId, setCardId] = useState<string | null>(null)
  const [typed, setTyped] = useState("")
  const amountId = useId()
  const owed = options.data?.owed
  const cards = options.data?.cards ?? []
  // Nothing owed, or nobody to charge: the order page shows no action.
  if (!owed || cards.length === 0) return null

  const open = () => {
    setCardId(cards[0].id)
    setTyped(owed.amount)
    action.onOpenChange(true)
  }

  const confirm = () => {
    if (!cardId) return action.setError("Choose a card.")
    const amount = typed.trim()
    void action.run(() =>
      nexiAdminApi.chargeSavedCard(orderId, {
        payment_method_id: cardId,
        ...(amount === owed.amount ? {} : { amount }),
      }),
    )
  }

  return (
    // Stacked: the section sits in the order page's narrow side column.
    <div className="flex flex-col items-start gap-y-3 px-6 py-4" data-testid="nexi-saved-card-charge">
      <Text size="small" className="text-ui-fg-subtle">
        The order owes {formatMoney(owed)}; the customer allows the shop to charge a saved card.
      </Text>
      <Button size="small" variant="secondary" onClick={open} data-testid="nexi-charge-saved-card">
        Charge saved card…
      </Button>
      <ActionPrompt
        open={action.open}
        onOpenChange={action.onOpenChange}
        title="Charge saved card"
        description="The card is charged at once, without the customer (they consented when saving it)."
        confirmLabel={`Charge ${formatMoney({ amount: typed.trim() || "0", currency: owed.currency })}`}
        dismissLabel="Cancel"
        confirmTestId="nexi-charge-saved-card-confirm"
        variant="confirmation"
        busy={action.busy}
        error={action.error}
        onConfirm={confirm}
      >
        <div className="flex flex-col gap-y-4">
          <fieldset className="flex flex-col gap-y-2">
            <legend className="txt-compact-small-plus mb-2">Card</legend>
            {cards.map((card) => (
              <label key={card.id} className="txt-compact-small flex items-center gap-x-2">
                <input
                  type="radio"
                  name="nexi-saved-card"
                  value={card.id}
                  checked={cardId === card.id}
                  onChange={() => setCardId(card.id)}
                  data-testid="nexi-charge-saved-card-option"
                />
                {card.circuit ?? "Card"} {card.masked_pan ?? ""}
                {card.expiry ? ` (expires ${card.expiry})` : ""}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-y-2">
            <Label htmlFor={amountId} size="small" weight="plus">
              Amount ({owed.currency}), at most what the order owes
            </Label>
            <Input
              id={amountId}
              inputMode="decimal"
              autoComplete="off"
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value)
                action.setError(null)
              }}
              data-testid="nexi-charge-saved-card-amount"
            />
          </div>
        </div>
      </ActionPrompt>
    </div>
  )
}

/**
 * Settings > Nexi, "MOTO payment": charges a card given by phone or mail for a draft order
 * (converted into an order once paid) or for an order with an unpaid balance
 * (POST /admin/nexi/moto). The amount is the order's, decided on the server; staff pick the
 * order from Medusa's list (OrderPicker) and give the card. The payment then appears on the
 * order like any card payment.
 */
import { Button, Container, Heading, Input, Label, RadioGroup, Text } from "@medusajs/ui"
import { type FormEvent, useId, useState } from "react"
import type { NexiStaffChargeResponse } from "../../staff/contract"
import { orderPageUrl } from "../lib/admin-links"
import { type CardFormValue, cardPayload, EMPTY_CARD } from "../lib/card-form"
import { type MotoCandidate, type MotoTarget, nexiAdminApi } from "../lib/nexi-admin-api"
import { CardFields } from "./card-fields"
import { OrderPicker } from "./order-picker"
import { useSubmission } from "./use-submission"

const TARGET_LABELS: Record<MotoTarget, string> = {
  draft_order_id: "Draft order",
  order_id: "Order with an unpaid balance",
}

export function MotoSection() {
  const [target, setTarget] = useState<MotoTarget>("draft_order_id")
  const [picked, setPicked] = useState<MotoCandidate | null>(null)
  // Bumped after each payment: the picker lists afresh (a paid draft order is an order now).
  const [paidCount, setPaidCount] = useState(0)
  const [holder, setHolder] = useState("")
  const [card, setCard] = useState<CardFormValue>(EMPTY_CARD)
  // With the number staff know the order by, as the picker showed it.
  const [result, setResult] = useState<{ answer: NexiStaffChargeResponse; displayId: number } | null>(null)
  const submission = useSubmission()
  const id = useId()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!picked) return
    setResult(null)
    const body = {
      ...(target === "draft_order_id" ? { draft_order_id: picked.id } : { order_id: picked.id }),
      card: cardPayload(card),
      ...(holder.trim() ? { card_holder_name: holder.trim() } : {}),
    }
    // Card data leaves the page with this request and nowhere else.
    setCard(EMPTY_CARD)
    const answer = await submission.submit(() => nexiAdminApi.moto(body))
    if (!answer) return
    setResult({ answer, displayId: picked.display_id })
    setPicked(null)
    setPaidCount((count) => count + 1)
    setHolder("")
  }

  return (
    <Container className="divide-y p-0" data-testid="nexi-moto">
      <div className="px-6 py-4">
        <Heading level="h2">MOTO payment</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Charge a card given by phone or mail. The amount is the order's total still to pay; capture and refund the
          payment from the order page as usual.
        </Text>
      </div>
      <form className="flex flex-col gap-y-4 px-6 py-4" onSubmit={onSubmit} autoComplete="off">
        <RadioGroup
          value={target}
          onValueChange={(value) => {
            setTarget(value as MotoTarget)
            setPicked(null)
          }}
          className="flex gap-x-6"
        >
          {(Object.keys(TARGET_LABELS) as MotoTarget[]).map((value) => (
            <div key={value} className="flex items-center gap-x-2">
              <RadioGroup.Item value={value} id={`${id}-${value}`} data-testid={`nexi-moto-target-${value}`} />
              <Label htmlFor={`${id}-${value}`} size="small">
                {TARGET_LABELS[value]}
              </Label>
            </div>
          ))}
        </RadioGroup>
        <OrderPicker key={`${target}:${paidCount}`} target={target} picked={picked} onPick={setPicked} />
        {/* The card number's column of the card fields below, so the two line up. */}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-[2fr_1fr_1fr]">
          <div className="flex flex-col gap-y-2">
            <Label htmlFor={`${id}-holder`} size="small" weight="plus">
              Card holder (optional)
            </Label>
            <Input
              id={`${id}-holder`}
              autoComplete="off"
              value={holder}
              onChange={(event) => setHolder(event.target.value)}
              data-testid="nexi-moto-holder"
            />
          </div>
        </div>
        <CardFields value={card} onChange={setCard} cvvOptional={false} testIdPrefix="nexi-moto" />
        {submission.error ? (
          <Text size="small" className="text-ui-fg-error" role="alert" data-testid="nexi-moto-error">
            {submission.error}
          </Text>
        ) : null}
        {result ? (
          <Text size="small" role="status" data-testid="nexi-moto-result" data-order-id={result.answer.order_id}>
            {result.answer.message}{" "}
            <a href={orderPageUrl(result.answer.order_id)} className="text-ui-fg-interactive hover:underline">
              Open order #{result.displayId}
            </a>
          </Text>
        ) : null}
        <div className="flex justify-end">
          <Button
            size="small"
            type="submit"
            isLoading={submission.busy}
            disabled={!picked}
            data-testid="nexi-moto-submit"
          >
            Charge card
          </Button>
        </div>
      </form>
    </Container>
  )
}

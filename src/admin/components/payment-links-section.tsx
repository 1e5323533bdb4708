/**
 * "Payment link" in the order's Nexi section: staff create a Nexi payment link for what the
 * order owes (an order edit, a claim, an exchange), copy it to send to the customer, and see
 * each link's state as the route reads it from the gateway and the ledger: open, paid, expired
 * or cancelled. An open link can be cancelled; a new link replaces the open one. "Payment link"
 * is offered only while the order owes something (the order view's `owed`), with a word on
 * Medusa's own "Copy payment link" beside it on the page.
 */
import { Badge, Button, Input, Label, Text } from "@medusajs/ui"
import { useState } from "react"
import type { NexiMoney, NexiPaymentLink } from "../../staff/contract"
import { messageOf } from "../lib/api-errors"
import { formatMoney } from "../lib/money"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import type { BadgeColor } from "../lib/status"
import { formatTime } from "../lib/time"
import { useAdminQuery } from "../lib/use-admin-query"
import { ActionPrompt } from "./action-prompt"
import { usePaymentAction } from "./use-payment-action"

const STATE_COLORS: Record<NexiPaymentLink["state"], BadgeColor> = {
  open: "blue",
  paid: "green",
  expired: "grey",
  cancelled: "orange",
}

const DEFAULT_DAYS = "7"

export function PaymentLinksSection(props: {
  orderId: string
  owed: NexiMoney | null
  onDone: (message: string) => void
}) {
  const links = useAdminQuery(props.orderId, () => nexiAdminApi.paymentLinks(props.orderId))
  const create = usePaymentAction((message) => {
    links.reload()
    props.onDone(message)
  })
  const [days, setDays] = useState(DEFAULT_DAYS)
  const [amount, setAmount] = useState("")
  const { owed } = props
  // Nothing owed and no link ever made: nothing to show.
  if (!owed && !links.data?.payment_links.length && !links.error) return null

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="nexi-payment-links">
      <div className="flex items-center justify-between">
        <Text size="small" weight="plus">
          Payment links
        </Text>
        {owed ? (
          <Button
            size="small"
            variant="secondary"
            onClick={() => create.onOpenChange(true)}
            data-testid="nexi-link-new"
          >
            Payment link
          </Button>
        ) : null}
      </div>
      {owed ? (
        <Text size="small" className="text-ui-fg-subtle" data-testid="nexi-link-advice">
          The order owes {formatMoney(owed)}. Send the customer a Nexi payment link: they pay on Nexi's page and the
          payment is recorded on this order. Medusa's own "Copy payment link" in the order summary points at a page of
          your storefront (/payment-collection/…) that Medusa's starters do not have: use it only if your storefront
          serves that page.
        </Text>
      ) : null}
      {links.error ? (
        <Text size="small" className="text-ui-fg-error" role="alert">
          Could not read the payment links: {messageOf(links.error)}
        </Text>
      ) : null}
      {links.data?.payment_links.map((link) => (
        <LinkRow
          key={link.link_id}
          link={link}
          orderId={props.orderId}
          onDone={(message) => {
            links.reload()
            props.onDone(message)
          }}
        />
      ))}
      <ActionPrompt
        open={create.open}
        onOpenChange={create.onOpenChange}
        title="Payment link"
        description="A Nexi payment link for what the order still owes, or a smaller amount. Send it to the customer: the payment is recorded on the order when they pay. It replaces the order's open link."
        confirmLabel="Create link"
        dismissLabel="Close"
        confirmTestId="nexi-link-create"
        variant="confirmation"
        busy={create.busy}
        error={create.error}
        onConfirm={() =>
          void create.run(async () => {
            const answer = await nexiAdminApi.createPaymentLink({
              order_id: props.orderId,
              expiry_days: Number(days),
              ...(amount.trim() ? { amount: amount.trim() } : {}),
            })
            return { message: answer.message ?? "Payment link created." }
          })
        }
      >
        <Label size="small" htmlFor="nexi-link-days">
          Can be paid for (days, at most 90)
        </Label>
        <Input
          id="nexi-link-days"
          size="small"
          inputMode="numeric"
          value={days}
          onChange={(event) => setDays(event.target.value)}
          data-testid="nexi-link-days"
        />
        <Label size="small" htmlFor="nexi-link-amount">
          Amount (empty: all the order owes)
        </Label>
        <Input
          id="nexi-link-amount"
          size="small"
          inputMode="decimal"
          placeholder="12.50"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          data-testid="nexi-link-amount"
        />
      </ActionPrompt>
    </div>
  )
}

function LinkRow(props: { link: NexiPaymentLink; orderId: string; onDone: (message: string) => void }) {
  const { link } = props
  const cancel = usePaymentAction(props.onDone)
  return (
    <div className="flex flex-col gap-y-2" data-testid="nexi-link" data-link-id={link.link_id}>
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small">
          {link.amount} {link.currency} · until {formatTime(link.expires_at)}
        </Text>
        <Badge size="2xsmall" color={STATE_COLORS[link.state]} data-testid="nexi-link-state">
          {link.state}
        </Badge>
      </div>
      {link.state === "open" ? (
        <div className="flex items-center gap-x-2">
          <Input size="small" readOnly value={link.url} data-testid="nexi-link-url" />
          <Button size="small" variant="secondary" onClick={() => void navigator.clipboard?.writeText(link.url)}>
            Copy
          </Button>
          <Button
            size="small"
            variant="danger"
            onClick={() => cancel.onOpenChange(true)}
            data-testid="nexi-link-cancel"
          >
            Cancel
          </Button>
        </div>
      ) : null}
      <ActionPrompt
        open={cancel.open}
        onOpenChange={cancel.onOpenChange}
        title="Cancel payment link"
        description="The customer can no longer pay on this link. A payment that reaches it anyway is given back."
        confirmLabel="Cancel link"
        dismissLabel="Keep link"
        confirmTestId="nexi-link-cancel-confirm"
        variant="danger"
        busy={cancel.busy}
        error={cancel.error}
        onConfirm={() =>
          void cancel.run(async () => {
            const answer = await nexiAdminApi.cancelPaymentLink(props.orderId, link.link_id)
            return { message: answer.message ?? "Payment link cancelled." }
          })
        }
      />
    </div>
  )
}

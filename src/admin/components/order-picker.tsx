/**
 * The MOTO form's choice of what to charge: a search box over Medusa's own lists (draft orders,
 * or orders), answered by Medusa's `q` search (display id, email, customer name on the
 * addresses), newest first, and a list to pick one from. Nothing is typed by hand: staff see the
 * order's number, customer and total before the card is charged.
 */
import { Badge, Input, Label, Text } from "@medusajs/ui"
import { useEffect, useId, useState } from "react"
import { messageOf } from "../lib/api-errors"
import { formatMoney } from "../lib/money"
import { type MotoCandidate, type MotoTarget, nexiAdminApi } from "../lib/nexi-admin-api"
import { humanizeCode } from "../lib/status"
import { useAdminQuery } from "../lib/use-admin-query"

/** What staff type settles for this long before Medusa is asked: one search per pause, not per key. */
const SEARCH_PAUSE_MS = 300

const NOUNS: Record<MotoTarget, string> = { draft_order_id: "draft order", order_id: "order" }

function customerOf(candidate: MotoCandidate): string {
  const name = [candidate.shipping_address?.first_name, candidate.shipping_address?.last_name].filter(Boolean).join(" ")
  return [name, candidate.email].filter(Boolean).join(" · ") || "No customer"
}

export function OrderPicker(props: {
  target: MotoTarget
  picked: MotoCandidate | null
  onPick: (candidate: MotoCandidate | null) => void
}) {
  const { target, picked, onPick } = props
  const [typed, setTyped] = useState("")
  const [search, setSearch] = useState("")
  const id = useId()

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [typed])

  const list = useAdminQuery(`${target}:${search}`, () => nexiAdminApi.motoCandidates(target, search))
  const noun = NOUNS[target]

  return (
    <div className="flex flex-col gap-y-2">
      <Label htmlFor={`${id}-search`} size="small" weight="plus">
        Find the {noun}
      </Label>
      <Input
        id={`${id}-search`}
        type="search"
        autoComplete="off"
        placeholder="Order number, email or customer name"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        data-testid="nexi-moto-order-search"
      />
      {list.error ? (
        <Text size="small" className="text-ui-fg-error" role="alert" data-testid="nexi-moto-order-search-error">
          Could not list the {noun}s: {messageOf(list.error)}
        </Text>
      ) : null}
      {list.data && list.data.length === 0 ? (
        <Text size="small" className="text-ui-fg-subtle" data-testid="nexi-moto-order-none">
          No {noun} matches{search ? ` "${search}"` : ""}.
        </Text>
      ) : null}
      {list.data?.length ? (
        <ul
          aria-label={`The ${noun} to charge`}
          className="flex max-h-64 flex-col divide-y overflow-y-auto rounded-md border"
        >
          {list.data.map((candidate) => {
            const chosen = picked?.id === candidate.id
            return (
              <li key={candidate.id}>
                <button
                  type="button"
                  aria-pressed={chosen}
                  onClick={() => onPick(chosen ? null : candidate)}
                  className={`flex w-full items-center justify-between gap-x-4 px-3 py-2 text-left ${chosen ? "bg-ui-bg-highlight" : "hover:bg-ui-bg-base-hover"}`}
                  data-testid="nexi-moto-order-option"
                  data-order-id={candidate.id}
                  data-display-id={candidate.display_id}
                >
                  <span className="flex flex-col">
                    <Text as="span" size="small" weight="plus">
                      #{candidate.display_id}
                    </Text>
                    <Text as="span" size="xsmall" className="text-ui-fg-subtle">
                      {customerOf(candidate)}
                    </Text>
                  </span>
                  <span className="flex items-center gap-x-2">
                    {candidate.payment_status ? (
                      <Badge size="2xsmall">{humanizeCode(candidate.payment_status)}</Badge>
                    ) : null}
                    <Text as="span" size="small">
                      {formatMoney({
                        amount: String(candidate.total),
                        currency: candidate.currency_code.toUpperCase(),
                      })}
                    </Text>
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      ) : null}
      <Text
        size="small"
        className="text-ui-fg-subtle"
        data-testid="nexi-moto-order-picked"
        data-order-id={picked?.id ?? ""}
      >
        {picked
          ? `Charging ${noun} #${picked.display_id} (${customerOf(picked)}).`
          : `Pick the ${noun} to charge from the list.`}
      </Text>
    </div>
  )
}

/**
 * The MOTO form's choice of what to charge: a search box over draft orders (Medusa's own list) or
 * orders with an unpaid balance (the plugin's list of those that owe), both answered by Medusa's
 * `q` search (display id, email, customer name on the addresses), newest first, and a list to pick
 * one from. Nothing is typed by hand: staff see the order's number, customer and what will be
 * charged before the card is.
 */
import { Input, Label, Text } from "@medusajs/ui"
import { useEffect, useId, useState } from "react"
import { messageOf } from "../lib/api-errors"
import { formatMoney } from "../lib/money"
import { type MotoCandidate, type MotoTarget, nexiAdminApi } from "../lib/nexi-admin-api"
import { useAdminQuery } from "../lib/use-admin-query"

/** What staff type settles for this long before Medusa is asked: one search per pause, not per key. */
const SEARCH_PAUSE_MS = 300

const NOUNS: Record<MotoTarget, string> = { draft_order_id: "draft order", order_id: "order" }

/** What the list says when it is empty and nothing was searched: there is nothing to charge. */
const NOTHING_LISTED: Record<MotoTarget, string> = {
  draft_order_id: "There is no draft order to charge. Create one under Draft Orders.",
  order_id: "No order has an unpaid balance.",
}

function customerOf(candidate: MotoCandidate): string {
  return [candidate.customer_name, candidate.email].filter(Boolean).join(" · ") || "No customer"
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
          {search
            ? `No ${target === "order_id" ? "order with an unpaid balance" : noun} matches "${search}".`
            : NOTHING_LISTED[target]}
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
                  <Text as="span" size="small" data-testid="nexi-moto-order-amount">
                    {target === "order_id" ? `owes ${formatMoney(candidate.amount)}` : formatMoney(candidate.amount)}
                  </Text>
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
          : list.data?.length
            ? `Pick the ${noun} to charge from the list.`
            : ""}
      </Text>
    </div>
  )
}

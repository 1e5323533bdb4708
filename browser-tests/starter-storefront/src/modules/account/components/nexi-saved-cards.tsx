"use client"
import { deleteMyNexiCard, listMyNexiCards } from "@lib/data/nexi"
import { Button, ErrorMessage, Spinner } from "@modules/common/components"
import { useSavedCards } from "medusa-payment-nexi-storefront/react"

export function NexiSavedCards() {
  const { cards, loading, error, remove } = useSavedCards({ list: listMyNexiCards, remove: deleteMyNexiCard })
  if (loading && !cards) return <Spinner />
  return (
    <ul>
      {cards?.map((card) => (
        <li key={card.id}>
          {card.circuit} {card.masked_pan}
          <Button onClick={() => remove(card.id)}>Delete</Button>
        </li>
      ))}
      {error ? <ErrorMessage error="The card could not be deleted or listed. Try again." /> : null}
    </ul>
  )
}

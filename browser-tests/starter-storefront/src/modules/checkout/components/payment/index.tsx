"use client"
import { initiatePaymentSession } from "@lib/data/cart"
import type { HttpTypes } from "@medusajs/types"
import { rememberMobileChoice } from "@modules/checkout/mobile-choice"
import { Button, ErrorMessage } from "@modules/common/components"
import { cardSessionData, type NexiPaymentMethod, type SavedCard } from "medusa-payment-nexi-storefront"
import { useRouter } from "next/navigation"
import { useState } from "react"

/** A new card, or the id of the saved card to pay with. */
type CardChoice = "new" | string

export function Payment({
  cart,
  methods,
  savedCards,
}: {
  cart: HttpTypes.StoreCart
  methods: NexiPaymentMethod[]
  /** null for a guest: no saved cards, no "Save my card". */
  savedCards: SavedCard[] | null
}) {
  const router = useRouter()
  const current = cart.payment_collection?.payment_sessions?.[0]?.provider_id
  const [providerId, setProviderId] = useState(current ?? methods[0]?.provider_id)
  const [card, setCard] = useState<CardChoice>(savedCards?.[0]?.id ?? "new")
  const [saveCard, setSaveCard] = useState(false)
  const [mobileNumber, setMobileNumber] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const method = methods.find((candidate) => candidate.provider_id === providerId)

  const toReview = async () => {
    if (!method) return
    setSubmitting(true)
    setError(null)
    try {
      if (method.kind === "mobile") {
        rememberMobileChoice(cart.id, { providerId: method.provider_id, mobileNumber })
      } else {
        rememberMobileChoice(cart.id, null)
        const data = card === "new" ? cardSessionData({ saveCard }) : cardSessionData({ paymentMethodId: card })
        await initiatePaymentSession(cart, { provider_id: method.provider_id, data })
      }
      router.push("?step=review")
    } catch (failure) {
      setError((failure as Error).message)
      setSubmitting(false)
    }
  }

  return (
    <section data-testid="payment-step">
      <h2>Payment</h2>
      {methods.map((candidate) => (
        <label key={candidate.provider_id} data-testid="payment-method" data-provider={candidate.provider_id}>
          <input
            type="radio"
            name="method"
            checked={candidate.provider_id === providerId}
            onChange={() => setProviderId(candidate.provider_id)}
          />
          {candidate.name}
        </label>
      ))}
      {method?.kind === "card" && savedCards ? (
        <fieldset data-testid="card-choice">
          {savedCards.map((saved) => (
            <label key={saved.id} data-testid="saved-card-option" data-saved-card={saved.id}>
              <input type="radio" name="card" checked={card === saved.id} onChange={() => setCard(saved.id)} />
              {saved.circuit} {saved.masked_pan}
            </label>
          ))}
          <label>
            <input type="radio" name="card" checked={card === "new"} onChange={() => setCard("new")} />A new card
          </label>
          {card === "new" ? (
            <label>
              <input
                type="checkbox"
                data-testid="save-card"
                checked={saveCard}
                onChange={(event) => setSaveCard(event.target.checked)}
              />
              Save my card
            </label>
          ) : null}
        </fieldset>
      ) : null}
      {method?.kind === "mobile" ? (
        <label>
          Mobile number{" "}
          <input id="mobile_number" value={mobileNumber} onChange={(event) => setMobileNumber(event.target.value)} />
        </label>
      ) : null}
      <Button data-testid="submit-payment" disabled={!method} isLoading={submitting} onClick={toReview}>
        Continue to review
      </Button>
      <ErrorMessage error={error} />
    </section>
  )
}

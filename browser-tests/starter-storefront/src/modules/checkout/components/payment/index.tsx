"use client"
import { paymentInfoMap } from "@lib/constants"
import { initiatePaymentSession } from "@lib/data/cart"
import type { HttpTypes } from "@medusajs/types"
import { rememberMobileChoice } from "@modules/checkout/mobile-choice"
import { Button, ErrorMessage } from "@modules/common/components"
import {
  cardSessionData,
  isNexiCardProvider,
  isNexiMobileProvider,
  type SavedCard,
} from "medusa-payment-nexi-storefront"
import { usePathname, useRouter, useSearchParams } from "next/navigation"
import { useState } from "react"

/** A new card, or the id of the saved card to pay with. */
type CardChoice = "new" | string

/** The starters' payment step (state and `handleSubmit` as theirs), with the Nexi cases of docs/storefront.md step 4. */
export function Payment({
  cart,
  availablePaymentMethods,
  savedCards,
  cardFields,
}: {
  cart: HttpTypes.StoreCart
  availablePaymentMethods: { id: string }[]
  /** null for a guest: no saved cards, no "Save my card". */
  savedCards: SavedCard[] | null
  /** The store takes a new card in the gateway's fields on the review step (XPay Build), not on the hosted page. */
  cardFields: boolean
}) {
  const activeSession = cart.payment_collection?.payment_sessions?.find((session) => session.status === "pending")
  const [isLoading, setIsLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [selectedPaymentMethod, setSelectedPaymentMethod] = useState(activeSession?.provider_id ?? "")
  const [card, setCard] = useState<CardChoice>(savedCards?.[0]?.id ?? "new")
  const [saveCard, setSaveCard] = useState(false)
  const [mobileNumber, setMobileNumber] = useState("")
  const searchParams = useSearchParams()
  const router = useRouter()
  const pathname = usePathname()

  const toStep = (step: string) => {
    const params = new URLSearchParams(searchParams)
    params.set("step", step)
    return `${pathname}?${params.toString()}`
  }

  const handleSubmit = async () => {
    setIsLoading(true)
    try {
      const checkActiveSession = activeSession?.provider_id === selectedPaymentMethod
      if (isNexiMobileProvider(selectedPaymentMethod)) {
        // No session: the review step's button creates it (docs/storefront.md, "Mobile payments").
        rememberMobileChoice(cart.id, { providerId: selectedPaymentMethod, mobileNumber })
      } else if (isNexiCardProvider(selectedPaymentMethod)) {
        rememberMobileChoice(cart.id, null)
        // Always a new session: it carries the card chosen, and a declined or cancelled one cannot be paid again.
        const data =
          card === "new"
            ? cardSessionData({ saveCard, integration: cardFields ? "build" : "hosted" })
            : cardSessionData({ paymentMethodId: card })
        await initiatePaymentSession(cart, { provider_id: selectedPaymentMethod, data })
      } else if (!checkActiveSession) {
        await initiatePaymentSession(cart, { provider_id: selectedPaymentMethod })
      }
      return router.push(toStep("review"), { scroll: false })
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setIsLoading(false)
    }
  }

  return (
    <section data-testid="payment-step">
      <h2>Payment</h2>
      {availablePaymentMethods.map((paymentMethod) => (
        <label key={paymentMethod.id} data-testid="payment-method" data-provider={paymentMethod.id}>
          <input
            type="radio"
            name="method"
            checked={paymentMethod.id === selectedPaymentMethod}
            onChange={() => {
              setError(null)
              setSelectedPaymentMethod(paymentMethod.id)
            }}
          />
          {paymentInfoMap[paymentMethod.id]?.title || paymentMethod.id}
        </label>
      ))}
      {isNexiCardProvider(selectedPaymentMethod) && savedCards ? (
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
      {isNexiMobileProvider(selectedPaymentMethod) ? (
        <label>
          Mobile number{" "}
          <input id="mobile_number" value={mobileNumber} onChange={(event) => setMobileNumber(event.target.value)} />
        </label>
      ) : null}
      <ErrorMessage error={error} />
      <Button
        data-testid="submit-payment"
        disabled={!selectedPaymentMethod}
        isLoading={isLoading}
        onClick={handleSubmit}
      >
        Continue to review
      </Button>
    </section>
  )
}

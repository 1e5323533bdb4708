"use client"
import { setShippingMethod } from "@lib/data/cart"
import type { HttpTypes } from "@medusajs/types"
import { Button, ErrorMessage } from "@modules/common/components"
import { formatAmount } from "@modules/common/money"
import { useRouter } from "next/navigation"
import { useState } from "react"

export function Shipping({
  cart,
  options,
}: {
  cart: HttpTypes.StoreCart
  options: HttpTypes.StoreCartShippingOption[]
}) {
  const router = useRouter()
  const [chosen, setChosen] = useState(cart.shipping_methods?.[0]?.shipping_option_id ?? null)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const choose = async (optionId: string) => {
    const before = chosen
    setChosen(optionId)
    setSaving(true)
    setError(null)
    try {
      await setShippingMethod({ cartId: cart.id, shippingMethodId: optionId })
      router.refresh()
    } catch (failure) {
      setChosen(before)
      setError((failure as Error).message)
    } finally {
      setSaving(false)
    }
  }
  return (
    <section data-testid="delivery-step">
      <h2>Delivery</h2>
      {options.map((option) => (
        <label key={option.id} data-testid="delivery-option">
          <input type="radio" name="shipping" checked={chosen === option.id} onChange={() => choose(option.id)} />
          {option.name} {formatAmount(option.amount, cart.currency_code)}
        </label>
      ))}
      <Button
        data-testid="submit-delivery-option"
        disabled={!chosen}
        isLoading={saving}
        onClick={() => router.push("?step=payment")}
      >
        Continue to payment
      </Button>
      <ErrorMessage error={error} />
    </section>
  )
}

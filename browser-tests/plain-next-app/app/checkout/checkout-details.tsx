"use client"
import type { HttpTypes } from "@medusajs/types"
import { useActionState } from "react"
import { saveDetails } from "../../lib/shop"

const FIELDS = [
  ["first_name", "First name"],
  ["last_name", "Last name"],
  ["address_1", "Address"],
  ["postal_code", "Postal code"],
  ["city", "City"],
] as const

/** The app's own checkout step before the payment: e-mail and address (the shop delivers in Italy only). */
export function CheckoutDetails({ cart }: { cart: HttpTypes.StoreCart }) {
  const [error, action, pending] = useActionState(saveDetails, null)
  return (
    <form action={action}>
      <label>
        E-mail <input id="email" name="email" type="email" required defaultValue={cart.email ?? ""} />
      </label>
      {FIELDS.map(([name, label]) => (
        <label key={name}>
          {label} <input id={name} name={name} required />
        </label>
      ))}
      <button type="submit" data-testid="to-payment" disabled={pending}>
        Continue to payment
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </form>
  )
}

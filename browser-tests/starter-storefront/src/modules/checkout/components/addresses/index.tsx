"use client"
import { setAddresses } from "@lib/data/cart"
import type { HttpTypes } from "@medusajs/types"
import { ErrorMessage } from "@modules/common/components"
import { useParams } from "next/navigation"
import { useActionState } from "react"

const FIELDS = [
  ["first_name", "First name"],
  ["last_name", "Last name"],
  ["address_1", "Address"],
  ["postal_code", "Postal code"],
  ["city", "City"],
  ["phone", "Phone"],
] as const

export function Addresses({ cart, customerEmail }: { cart: HttpTypes.StoreCart; customerEmail?: string }) {
  const { countryCode } = useParams<{ countryCode: string }>()
  const [error, action, pending] = useActionState(setAddresses, null)
  const address = cart.shipping_address
  return (
    <form action={action} data-testid="address-form">
      <h2>Shipping address</h2>
      <label>
        E-mail <input id="email" name="email" type="email" required defaultValue={cart.email ?? customerEmail ?? ""} />
      </label>
      {FIELDS.map(([name, label]) => (
        <label key={name}>
          {label} <input id={name} name={name} required={name !== "phone"} defaultValue={address?.[name] ?? ""} />
        </label>
      ))}
      <label>
        Country{" "}
        <select id="country_code" name="country_code" defaultValue={address?.country_code ?? countryCode}>
          {cart.region?.countries?.map((country) => (
            <option key={country.iso_2} value={country.iso_2}>
              {country.display_name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" data-testid="submit-address" disabled={pending}>
        Continue to delivery
      </button>
      <ErrorMessage error={error} />
    </form>
  )
}

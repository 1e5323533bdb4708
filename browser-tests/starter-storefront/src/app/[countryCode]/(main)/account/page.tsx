import { retrieveCustomer } from "@lib/data/customer"
import { Login } from "@modules/account/components/login"
import { NexiSavedCards } from "@modules/account/components/nexi-saved-cards"

export const dynamic = "force-dynamic"

export default async function AccountPage() {
  const customer = await retrieveCustomer()
  if (!customer) return <Login />
  return (
    <div data-testid="account">
      <p data-testid="customer-email">{customer.email}</p>
      <h2>Saved cards</h2>
      <NexiSavedCards />
    </div>
  )
}

import type { HttpTypes } from "@medusajs/types"
import { PaymentButton } from "@modules/checkout/components/payment-button"
import { formatAmount } from "@modules/common/money"

export function Review({ cart, sdkIntegrity }: { cart: HttpTypes.StoreCart; sdkIntegrity?: string }) {
  return (
    <section data-testid="review-step">
      <h2>Review</h2>
      <p>
        Shipping: <span data-testid="review-shipping">{cart.shipping_methods?.[0]?.name}</span>,{" "}
        {formatAmount(cart.shipping_total, cart.currency_code)}
      </p>
      <PaymentButton cart={cart} sdkIntegrity={sdkIntegrity} />
    </section>
  )
}

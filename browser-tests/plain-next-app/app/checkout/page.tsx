import { listPaymentMethods } from "medusa-payment-nexi-storefront"
import { retrieveCart } from "../../lib/cart"
import { sdk } from "../../lib/config"
import { formatAmount } from "../../lib/money"
import { CheckoutDetails } from "./checkout-details"
import { PayWithCard } from "./pay-with-card"
import { RefreshWithCookies } from "./refresh-with-cookies"

export const dynamic = "force-dynamic"

export default async function CheckoutPage(props: { searchParams: Promise<{ step?: string; cart_id?: string }> }) {
  const { step, cart_id } = await props.searchParams
  const cart = await retrieveCart()
  // Back from the hosted page's cancel (cancelUrl has cart_id): this request came without the cookies.
  if (!cart && cart_id) return <RefreshWithCookies />
  if (!cart?.items?.length) return <p data-testid="empty-cart">Your cart is empty.</p>
  if (step !== "payment" || !cart.shipping_methods?.length) return <CheckoutDetails cart={cart} />
  // The payment step: the region's Nexi card method (its id is the store's configuration), and its button.
  const card = (await listPaymentMethods(sdk.client, cart.region_id ?? "")).find((method) => method.kind === "card")
  return (
    <section>
      <p>
        Total <span data-testid="cart-total">{formatAmount(cart.total, cart.currency_code)}</span>
      </p>
      {card ? <PayWithCard providerId={card.provider_id} /> : <p>This shop takes no card payments in your country.</p>}
    </section>
  )
}

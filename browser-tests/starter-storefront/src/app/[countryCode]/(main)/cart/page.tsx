import { retrieveCart } from "@lib/data/cart"
import { LocalizedClientLink } from "@modules/common/localized-client-link"
import { formatAmount } from "@modules/common/money"

export const dynamic = "force-dynamic"

export default async function CartPage() {
  const cart = await retrieveCart()
  if (!cart?.items?.length) return <p data-testid="empty-cart">Your cart is empty.</p>
  return (
    <div>
      <ul>
        {cart.items.map((item) => (
          <li key={item.id} data-testid="cart-line">
            {item.product_title} × {item.quantity}
          </li>
        ))}
      </ul>
      <p data-testid="cart-subtotal">{formatAmount(cart.subtotal, cart.currency_code)}</p>
      <LocalizedClientLink href="/checkout?step=address">Go to checkout</LocalizedClientLink>
    </div>
  )
}

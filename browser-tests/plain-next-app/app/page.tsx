import { formatAmount } from "../lib/money"
import { addToCart, listProducts, shopRegion } from "../lib/shop"

export const dynamic = "force-dynamic"

export default async function ShopPage() {
  const region = await shopRegion()
  const products = await listProducts(region.id)
  return (
    <ul>
      {products.map((product) => {
        const variant = product.variants?.[0]
        return (
          <li key={product.id} data-handle={product.handle}>
            <h2>{product.title}</h2>
            <p>{formatAmount(variant?.calculated_price?.calculated_amount, region.currency_code)}</p>
            <form action={addToCart}>
              <input type="hidden" name="variantId" value={variant?.id} />
              <button type="submit" data-testid="add-to-cart">
                Add to cart
              </button>
            </form>
          </li>
        )
      })}
    </ul>
  )
}

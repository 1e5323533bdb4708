import { addToCart } from "@lib/data/cart"
import { listProducts } from "@lib/data/products"
import { getRegion } from "@lib/data/regions"
import { formatAmount } from "@modules/common/money"
import { notFound } from "next/navigation"

export const dynamic = "force-dynamic"

export default async function StorePage(props: { params: Promise<{ countryCode: string }> }) {
  const { countryCode } = await props.params
  const region = await getRegion(countryCode)
  if (!region) notFound()
  const products = await listProducts(region.id)
  return (
    <ul>
      {products.map((product) => {
        const variant = product.variants?.[0]
        const price = variant?.calculated_price
        return (
          <li key={product.id} data-testid="product" data-handle={product.handle}>
            <h2>{product.title}</h2>
            <p data-testid="price">{formatAmount(price?.calculated_amount, region.currency_code)}</p>
            <form action={addToCart}>
              <input type="hidden" name="countryCode" value={countryCode} />
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

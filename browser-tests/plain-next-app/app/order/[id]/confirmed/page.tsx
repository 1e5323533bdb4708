import { formatAmount } from "../../../../lib/money"
import { retrieveOrder } from "../../../../lib/shop"

export const dynamic = "force-dynamic"

export default async function OrderConfirmedPage(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params
  const order = await retrieveOrder(id)
  return (
    <div data-testid="order-confirmed">
      <h1>Thank you! Your order was placed.</h1>
      <p>
        Order #{order.display_id}, total{" "}
        <span data-testid="order-total">{formatAmount(order.total, order.currency_code)}</span>
      </p>
    </div>
  )
}

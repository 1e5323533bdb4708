import { paymentInfoMap } from "@lib/constants"
import { retrieveOrder } from "@lib/data/orders"
import { formatAmount } from "@modules/common/money"

export const dynamic = "force-dynamic"

export default async function OrderConfirmedPage(props: { params: Promise<{ id: string }> }) {
  const { id } = await props.params
  const order = await retrieveOrder(id)
  const payment = order.payment_collections?.[0]?.payments?.[0]
  return (
    <div data-testid="order-confirmed">
      <h1>Thank you! Your order was placed.</h1>
      <p>
        Order <span data-testid="order-display-id">#{order.display_id}</span>, total{" "}
        <span data-testid="order-total">{formatAmount(order.total, order.currency_code)}</span>
      </p>
      {/* As the starters' payment details: the map's title, with no fallback. */}
      {payment ? <p data-testid="order-payment">{paymentInfoMap[payment.provider_id].title}</p> : null}
    </div>
  )
}

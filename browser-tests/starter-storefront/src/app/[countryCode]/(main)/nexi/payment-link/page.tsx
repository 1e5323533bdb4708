import { nexiPaymentLinkOutcome } from "@lib/data/nexi"
import { Heading, Text } from "@modules/common/components"
import { LocalizedClientLink } from "@modules/common/localized-client-link"
import { formatAmount } from "@modules/common/money"
import type { PaymentLinkStatus } from "medusa-payment-nexi-storefront"

export const dynamic = "force-dynamic"

const TITLES: Record<PaymentLinkStatus, string> = {
  paid: "Thank you: your payment is received",
  pending: "Your payment is not confirmed yet",
  declined: "Payment not completed",
  cancelled: "Payment not completed",
  expired: "This payment link has expired",
}

/** Where a Nexi payment link returns to (the provider's paymentLinkResultUrl): no cart, only what became of the link. */
export default async function NexiPaymentLinkPage(props: {
  searchParams: Promise<{ order_id?: string; session_id?: string }>
}) {
  const { order_id, session_id } = await props.searchParams
  const link = await nexiPaymentLinkOutcome(order_id ?? "", session_id ?? "")
  if ("error" in link) return <Text>We could not check this payment link: {link.error}</Text>
  const amount = formatAmount(Number(link.amount), link.currency_code)
  return (
    <div data-testid="payment-link-outcome" data-status={link.status}>
      <Heading>{TITLES[link.status]}</Heading>
      <Text>{link.status === "paid" ? `${amount} paid.` : (link.reason ?? `The link asks ${amount}.`)}</Text>
      {link.status === "pending" ? (
        <a href={`?order_id=${order_id}&session_id=${session_id}`}>Check again</a>
      ) : (
        <LocalizedClientLink href="/">Back to the shop</LocalizedClientLink>
      )}
    </div>
  )
}

"use client"
import { usePaymentOutcome } from "medusa-payment-nexi-storefront/react"
import Link from "next/link"
import { useRouter } from "next/navigation"
import { useEffect } from "react"
import { resolveNexiReturn } from "../../../../lib/nexi"

/**
 * The cart is completed from a server action the page calls once loaded: the navigation back
 * from the gateway carried no SameSite=strict cookie, the page's own request does, and Next.js
 * allows no cookie to be set while a server component renders.
 */
export function NexiResult({ cartId }: { cartId?: string }) {
  const router = useRouter()
  const { outcome, polling, error, checkAgain } = usePaymentOutcome(cartId, () => resolveNexiReturn(cartId ?? ""))
  useEffect(() => {
    if (outcome?.state === "order_placed") router.replace(`/order/${outcome.orderId}/confirmed`)
  }, [outcome, router])

  if (!cartId) return <Failure text="This page needs the cart it pays for." />
  if (error) return <Failure text="We could not check the payment. Check your email before paying again." />
  if (!outcome || outcome.state === "order_placed" || (outcome.state === "pending" && polling)) {
    return <p>Please wait…</p>
  }
  if (outcome.state === "pending") {
    return (
      <div>
        <p>We have no answer from the bank yet. Check your email before paying again.</p>
        <button type="button" onClick={checkAgain}>
          Check again
        </button>
      </div>
    )
  }
  const reason = outcome.state === "no_payment" ? "No payment was started for this cart." : outcome.reason
  return <Failure text={reason ?? "The payment did not go through."} />
}

/** Why the payment did not go through, and the way back to the payment step: paying again starts a new session. */
function Failure({ text }: { text: string }) {
  return (
    <div>
      <h1>Payment not completed</h1>
      <p data-testid="failure-reason">{text}</p>
      <Link href="/checkout?step=payment">Try again</Link>
    </div>
  )
}

"use client"
import { resolveNexiReturn } from "@lib/data/nexi"
import { Failure } from "@modules/checkout/components/failure"
import { Button, Spinner, Text } from "@modules/common/components"
import { usePaymentOutcome } from "medusa-payment-nexi-storefront/react"
import { useRouter } from "next/navigation"
import { useEffect } from "react"

export function NexiResult({ cartId, countryCode }: { cartId?: string; countryCode: string }) {
  const router = useRouter()
  const { outcome, polling, error, checkAgain } = usePaymentOutcome(cartId, () => resolveNexiReturn(cartId ?? ""))
  useEffect(() => {
    if (outcome?.state === "order_placed") router.replace(`/${countryCode}/order/${outcome.orderId}/confirmed`)
  }, [outcome, countryCode, router])

  if (!cartId) return <Failure text="This page needs the cart it pays for." />
  if (error) return <Failure text="We could not check the payment. Check your email before paying again." />
  if (!outcome || outcome.state === "order_placed" || (outcome.state === "pending" && polling)) return <Spinner />
  if (outcome.state === "pending") {
    return (
      <div>
        <Text>We have no answer from the bank yet. Check your email before paying again.</Text>
        <Button onClick={checkAgain}>Check again</Button>
      </div>
    )
  }
  const reason = outcome.state === "no_payment" ? "No payment was started for this cart." : outcome.reason
  return <Failure text={reason ?? "The payment did not go through."} />
}

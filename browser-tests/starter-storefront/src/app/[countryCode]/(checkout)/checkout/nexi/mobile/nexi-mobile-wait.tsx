"use client"
import { nexiPaymentOutcome } from "@lib/data/nexi"
import { Failure } from "@modules/checkout/components/failure"
import { Button, Spinner, Text } from "@modules/common/components"
import { usePaymentOutcome } from "medusa-payment-nexi-storefront/react"
import { useRouter } from "next/navigation"
import { useEffect } from "react"

export function NexiMobileWait({
  cartId,
  sessionId,
  countryCode,
}: {
  cartId: string
  sessionId: string
  countryCode: string
}) {
  const router = useRouter()
  const { outcome, polling, checkAgain } = usePaymentOutcome(sessionId, () => nexiPaymentOutcome(cartId, sessionId), {
    maxDelayMs: 5_000,
    giveUpAfterMs: 600_000,
  })
  useEffect(() => {
    if (outcome?.state === "order_placed") router.replace(`/${countryCode}/order/${outcome.orderId}/confirmed`)
  }, [outcome, countryCode, router])
  if (!outcome || outcome.state === "pending") {
    return polling ? (
      <Text>Approve the payment in your app.</Text>
    ) : (
      <Button onClick={checkAgain}>I approved it: check again</Button>
    )
  }
  if (outcome.state === "order_placed") return <Spinner />
  return (
    <Failure text={(outcome.state === "no_payment" ? null : outcome.reason) ?? "The payment did not go through."} />
  )
}

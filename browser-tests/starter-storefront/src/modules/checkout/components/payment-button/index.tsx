"use client"
import { nexiHostedPage } from "@lib/data/nexi"
import { startNexiMobilePayment } from "@lib/data/nexi-mobile"
import type { HttpTypes } from "@medusajs/types"
import { NexiCardFieldsPayment } from "@modules/checkout/components/nexi-card-fields"
import { type MobileChoice, mobileChoiceOf } from "@modules/checkout/mobile-choice"
import { Button, ErrorMessage } from "@modules/common/components"
import { hasCardFields, isNexiCardProvider } from "medusa-payment-nexi-storefront"
import { useParams, useRouter } from "next/navigation"
import { useEffect, useState } from "react"

/** The review step's final button, as the starters' PaymentButton: one case per kind of payment. */
export function PaymentButton({ cart, sdkIntegrity }: { cart: HttpTypes.StoreCart; sdkIntegrity?: string }) {
  const notReady = !cart.shipping_address || !cart.billing_address || !cart.email || !cart.shipping_methods?.length
  const paymentSession = cart.payment_collection?.payment_sessions?.[0]
  const [mobile, setMobile] = useState<MobileChoice | null>(null)
  useEffect(() => setMobile(mobileChoiceOf(cart.id)), [cart.id])
  // The card fields stay once shown: when the cart changes, the store drops their session and
  // the refreshed page has none, but the fields must still say so and open new ones.
  const [cardFields, setCardFields] = useState(hasCardFields(paymentSession) ? paymentSession : undefined)
  useEffect(() => {
    if (hasCardFields(paymentSession)) setCardFields(paymentSession)
  }, [paymentSession])

  switch (true) {
    case mobile !== null:
      return <NexiMobileButton cart={cart} choice={mobile} notReady={notReady} />
    case cardFields !== undefined:
      return <NexiCardFieldsPayment cart={cart} session={cardFields} notReady={notReady} sdkIntegrity={sdkIntegrity} />
    case isNexiCardProvider(paymentSession?.provider_id):
      return <NexiHostedPageButton cart={cart} notReady={notReady} />
    default:
      return <Button disabled>Select a payment method</Button>
  }
}

const NexiHostedPageButton = ({ cart, notReady }: { cart: HttpTypes.StoreCart; notReady: boolean }) => {
  const [error, setError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const pay = async () => {
    setSubmitting(true)
    const page = await nexiHostedPage(cart.id)
    if ("url" in page) return window.location.assign(page.url)
    setError(page.error)
    setSubmitting(false)
  }
  return (
    <>
      <Button disabled={notReady} isLoading={submitting} onClick={pay} size="large">
        Pay with card
      </Button>
      <ErrorMessage error={error} />
    </>
  )
}

const NexiMobileButton = ({
  cart,
  choice,
  notReady,
}: {
  cart: HttpTypes.StoreCart
  choice: MobileChoice
  notReady: boolean
}) => {
  const router = useRouter()
  const { countryCode } = useParams<{ countryCode: string }>()
  const [error, setError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const pay = async () => {
    setSubmitting(true)
    const started = await startNexiMobilePayment(cart, choice.providerId, choice.mobileNumber)
    if ("sessionId" in started) {
      return router.push(`/${countryCode}/checkout/nexi/mobile?cart_id=${cart.id}&session_id=${started.sessionId}`)
    }
    setError(started.error)
    setSubmitting(false)
  }
  return (
    <>
      <Button disabled={notReady} isLoading={submitting} onClick={pay} size="large">
        Place order
      </Button>
      <ErrorMessage error={error} />
    </>
  )
}

"use client"
import { initiatePaymentSession } from "@lib/data/cart"
import { finalizeNexiCardPayment, resolveNexiReturn } from "@lib/data/nexi"
import type { HttpTypes } from "@medusajs/types"
import { Button } from "@modules/common/components"
import { formatAmount } from "@modules/common/money"
import { cardSessionData } from "medusa-payment-nexi-storefront"
import { NexiCardFields } from "medusa-payment-nexi-storefront/react"
import { useParams, useRouter } from "next/navigation"
import "./card-fields.css"

/**
 * The review step's card payment in the gateway's own fields (XPay Build): the shopper types
 * the card here and pays without leaving the page, unless 3-D Secure asks for a challenge (then
 * the bank's page, and back to the result page). Each step of the store's is a server action.
 */
export function NexiCardFieldsPayment({
  cart,
  session,
  notReady,
  sdkIntegrity,
}: {
  cart: HttpTypes.StoreCart
  session: HttpTypes.StorePaymentSession
  notReady: boolean
  sdkIntegrity?: string
}) {
  const router = useRouter()
  const { countryCode } = useParams<{ countryCode: string }>()
  if (notReady) return <Button disabled>Pay</Button>
  // After a decline, an expiry or a changed cart: a new session, whose new fields the refreshed page shows.
  const renew = async () => {
    const data = cardSessionData({
      integration: "build",
      saveCard: session.data?.save_card === true,
      allowMerchantCharges: session.data?.allow_merchant_charges === true,
    })
    await initiatePaymentSession(cart, { provider_id: session.provider_id, data })
    router.refresh()
  }
  return (
    <NexiCardFields
      session={session}
      finalize={() => finalizeNexiCardPayment(cart.id, session.id)}
      settle={() => resolveNexiReturn(cart.id)}
      renew={renew}
      onPaid={(orderId) => router.push(`/${countryCode}/order/${orderId}/confirmed`)}
      integrity={sdkIntegrity}
      // Inside the gateway's fields: this shop's stylesheet and the classes it styles.
      style={{ cssLink: "/nexi-card-fields.css", componentClassName: "card-input", containerClassName: "card-box" }}
      labels={{ pay: `Pay ${formatAmount(cart.total, cart.currency_code)}` }}
      className="card-fields"
      fieldClassName="card-field"
    />
  )
}

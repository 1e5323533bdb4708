"use server"
import { initiatePaymentSession } from "@lib/data/cart"
import type { HttpTypes } from "@medusajs/types"
import { mobileSessionData, NexiInputError } from "medusa-payment-nexi-storefront"

/** The final button's work for a mobile method: creating the session sends the request to the shopper's app. */
export async function startNexiMobilePayment(
  cart: HttpTypes.StoreCart,
  providerId: string,
  mobileNumber: string,
): Promise<{ sessionId: string } | { error: string }> {
  try {
    const data = mobileSessionData({ mobileNumber })
    const { payment_collection } = await initiatePaymentSession(cart, { provider_id: providerId, data })
    const session = payment_collection?.payment_sessions?.find((candidate) => candidate.provider_id === providerId)
    if (!session) return { error: "The payment could not be started. Try again." }
    if (session.status === "error")
      return { error: String(session.data?.reason ?? "The payment scheme refused the payment.") }
    return { sessionId: session.id }
  } catch (error) {
    if (error instanceof NexiInputError) return { error: "Give the mobile number your payment app uses." }
    return { error: (error as Error).message }
  }
}

/**
 * Reads a Nexi payment live from its service and turns it into the admin view: a card payment
 * from the gateway order its data names, a mobile payment from its APM transaction.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { readCardSessionData } from "../core/card/card-sessions"
import { toMedusaError } from "../core/medusa-errors"
import { readApmSessionData } from "../core/mobile/apm-session-data"
import { apmClientFor, gatewayClientFor, isNexiCardProviderId } from "../core/store-entries"
import type { OrderDetails } from "../gateway/schemas"
import { cardPaymentView } from "./card-payment-view"
import type { NexiPaymentView } from "./contract"
import { mobilePaymentView } from "./mobile-payment-view"
import type { NexiPaymentRecord } from "./nexi-payments"

/** The gateway order behind a card payment (its data.order_id). */
export async function gatewayOrderOf(container: MedusaContainer, payment: NexiPaymentRecord): Promise<OrderDetails> {
  const orderId = readCardSessionData(payment.data ?? undefined).order_id
  if (!orderId) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Payment ${payment.id} has no gateway order id in its data.`,
    )
  }
  try {
    return await gatewayClientFor(container, payment.provider_id).getOrder(orderId)
  } catch (error) {
    throw toMedusaError(error, `read gateway order ${orderId} of payment ${payment.id}`)
  }
}

export async function readPaymentView(
  container: MedusaContainer,
  payment: NexiPaymentRecord,
): Promise<NexiPaymentView> {
  const identity = { payment_id: payment.id, provider_id: payment.provider_id }
  if (isNexiCardProviderId(payment.provider_id)) {
    return cardPaymentView(identity, await gatewayOrderOf(container, payment))
  }
  const data = readApmSessionData(payment.data ?? undefined)
  if (!data.transaction_id) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Payment ${payment.id} has no transaction id in its data.`,
    )
  }
  try {
    const envelope = await apmClientFor(container, payment.provider_id).getTransaction(
      data.transaction_id,
      data.next_link,
    )
    return mobilePaymentView(identity, data, envelope)
  } catch (error) {
    throw toMedusaError(error, `read transaction ${data.transaction_id} of payment ${payment.id}`)
  }
}

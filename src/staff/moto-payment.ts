/**
 * POST /admin/nexi/moto: a card payment taken by phone or mail for a draft order or an order.
 *
 * The order's collection and the session holding this attempt's gateway order id come from the
 * staff pipeline (order-collection.ts, channel `moto`). The card goes straight to the gateway
 * (POST /orders/moto) under that order id, with an idempotency key derived from the Medusa order
 * and the session (the attempt), sent once and recorded in Medusa by staff-charge.ts. Staff then
 * capture, refund and cancel it with Medusa's buttons. An order lock keeps two requests for one
 * order from running at once. The card data is only ever in this request's memory.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { idempotencyUuid } from "../core/idempotency"
import { gatewayClientFor, requireNexiOptions } from "../core/store-entries"
import type { CustomerInfo, MotoRequest } from "../gateway/schemas"
import { type CardInput, cardRequestError, gatewayCard } from "./card-input"
import type { OrderTargetField } from "./collection-plan"
import type { NexiStaffChargeResponse } from "./contract"
import { type StaffAttempt, startStaffAttempt, withCollectionLock } from "./order-collection"
import { chargeOnce } from "./staff-charge"

export interface MotoInput {
  field: OrderTargetField
  orderId: string
  card: CardInput
  cardHolderName?: string
}

export async function payByMoto(container: MedusaContainer, input: MotoInput): Promise<NexiStaffChargeResponse> {
  return withCollectionLock(container, input.orderId, "moto", () => payLocked(container, input))
}

async function payLocked(container: MedusaContainer, input: MotoInput): Promise<NexiStaffChargeResponse> {
  const attempt = await startStaffAttempt(container, { orderId: input.orderId, field: input.field, channel: "moto" })
  const gateway = gatewayClientFor(container, attempt.providerId)
  const request = motoRequest(container, attempt, input)
  const key = idempotencyUuid(`moto:${attempt.order.id}:${attempt.sessionId}`)
  return chargeOnce(container, {
    attempt,
    kind: "moto",
    idempotencyKey: key,
    action: "take the MOTO payment",
    order: request.order,
    send: () => gateway.createMotoPayment(request, key),
    requestError: (error) => cardRequestError(error, "MOTO payment"),
    cardText: (payment) => [payment.circuit, payment.masked_card].filter(Boolean).join(" ") || "the card",
    how: " by MOTO",
  })
}

function motoRequest(container: MedusaContainer, attempt: StaffAttempt, input: MotoInput): MotoRequest {
  const { order, data } = attempt
  const customerInfo: CustomerInfo = {
    ...(input.cardHolderName ? { cardHolderName: input.cardHolderName } : {}),
    ...(order.email ? { cardHolderEmail: order.email } : {}),
  }
  return {
    order: {
      orderId: data.order_id,
      amount: data.amount_minor,
      currency: data.currency,
      // As on hosted orders: the gateway's back office and notifications point back to the session.
      customField: attempt.sessionId,
      description: `MOTO payment of order ${order.display_id ?? order.id}`,
      ...(order.customer_id ? { customerId: order.customer_id } : {}),
      ...(Object.keys(customerInfo).length ? { customerInfo } : {}),
    },
    card: gatewayCard(input.card),
    captureType: requireNexiOptions(container, attempt.providerId).captureType,
  }
}

/**
 * An order edit confirmed in Medusa: an open Nexi payment link for an amount the order no longer
 * owes is cancelled at the gateway (src/staff/payment-links.ts), so the customer cannot pay the
 * old amount; staff send a new link for what is owed now.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderEditWorkflowEvents } from "@medusajs/framework/utils"
import { cancelLinksOfEditedOrder } from "../staff/payment-links"

export default async function nexiOrderEditConfirmedHandler({
  event,
  container,
}: SubscriberArgs<{ order_id: string }>) {
  if (event.data?.order_id) await cancelLinksOfEditedOrder(container, event.data.order_id)
}

export const config: SubscriberConfig = {
  event: OrderEditWorkflowEvents.CONFIRMED,
  context: { subscriberId: "nexi-order-edit-confirmed" },
}

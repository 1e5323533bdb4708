/**
 * An order cancelled in Medusa: its open Nexi payment links are cancelled at the gateway
 * (src/staff/payment-links.ts), so the customer can no longer pay what is no longer owed. A
 * payment that reaches a link before the gateway hears of the cancel is released by the sync.
 * Medusa's own cancel voids or refunds the payments the order already holds.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { cancelLinksOfOrder } from "../staff/payment-links"

export default async function nexiOrderCanceledHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  if (event.data?.id) await cancelLinksOfOrder(container, event.data.id)
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.CANCELED,
  context: { subscriberId: "nexi-order-canceled" },
}

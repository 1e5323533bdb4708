/**
 * The one decision on a card notification. Medusa's webhook route emits
 * payment.webhook_received; this subscriber syncs the gateway order it names
 * (src/core/card/card-sync.ts): the security token first, then one read of the order, then what it
 * means applied to Medusa, including completing the cart of a paid payment as Medusa's own
 * subscriber would. The card provider answers Medusa's subscriber `not_supported` without
 * reading anything, so that one does nothing (docs/architecture.md).
 *
 * Every store entry's card provider receives its notifications on its own route
 * (/hooks/payment/nexi_<entry id>); the mobile schemes (nexi-apm-<scheme>_<entry id>) receive
 * none. A throw (the gateway unreachable) makes the event bus try the event again.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { cardSyncFor } from "../core/card/card-sync"
import { isNexiCardWebhookProvider } from "../core/provider-ids"

export default async function nexiPaymentWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  if (!isNexiCardWebhookProvider(event.data?.provider)) return
  await cardSyncFor(container, `pp_${event.data.provider}`).notification(event.data.payload)
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "nexi-payment-webhook" },
}

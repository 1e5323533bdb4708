/**
 * Runs beside core's own webhook subscriber on every payment.webhook_received event. Core
 * completes carts for authorized and captured payments; this one does what core drops:
 * a declined, failed or cancelled payment marks its session with the reason, and refunds
 * made in the gateway's back office are recorded on the Medusa payment.
 *
 * Every store entry's card provider sends its notifications to its own route
 * (/hooks/payment/nexi_<entry id>), so each of them is handled here; the mobile schemes
 * (nexi-apm-<scheme>_<entry id>) receive no notifications.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { IPaymentModuleService, ProviderWebhookPayload } from "@medusajs/framework/types"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { isNexiCardWebhookProvider } from "../providers/nexi/shared/provider-ids"
import { applyPaymentAction } from "../reconciliation/apply-payment-action"

/** Results core already handles; a body claiming one is left to core (the job catches a lie). */
const SUCCESS_RESULTS = new Set(["AUTHORIZED", "EXECUTED"])

function claimedResult(payload: ProviderWebhookPayload["payload"]): unknown {
  return (payload?.data as { operation?: { operationResult?: unknown; operationType?: unknown } } | undefined)?.operation
}

export default async function nexiPaymentWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  if (!isNexiCardWebhookProvider(event.data?.provider)) return
  const operation = claimedResult(event.data.payload) as { operationResult?: unknown; operationType?: unknown } | undefined
  const isPaymentSuccess =
    SUCCESS_RESULTS.has(String(operation?.operationResult)) &&
    (operation?.operationType === "AUTHORIZATION" || operation?.operationType === "CAPTURE")
  if (isPaymentSuccess) return
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const result = await payment.getWebhookActionAndData(event.data)
  await applyPaymentAction(container, result, { includeSuccess: false })
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "nexi-payment-webhook" },
}

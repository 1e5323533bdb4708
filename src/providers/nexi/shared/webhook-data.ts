/**
 * What Nexi providers put in WebhookActionResult.data. Core reads session_id and amount; the
 * plugin's own subscriber, job and status route read the rest (see src/reconciliation).
 */
import type { BigNumberValue } from "@medusajs/framework/types"

export interface NexiWebhookData {
  session_id: string
  /** Major units, as core expects. */
  amount: BigNumberValue
  /** Why the payment failed or was cancelled. */
  nexi_reason?: string
  /** Total refunded at the gateway, in major units, for refunds made outside Medusa. */
  nexi_refunded?: string
  nexi_refund_operation_ids?: string[]
}

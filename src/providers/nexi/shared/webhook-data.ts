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
  /** The gateway order, whose writes in the ledger say which refunds Medusa sent itself. */
  nexi_order_id?: string
  /** The gateway's settled REFUND operations, oldest first, each in major units. */
  nexi_refunds?: Array<{ operation_id: string; amount: string }>
}

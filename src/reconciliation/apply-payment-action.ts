/**
 * Applies what a Nexi provider read from the gateway to Medusa, for the paths core does not
 * cover. Core's webhook subscriber completes carts for `authorized` and `captured` only; a
 * declined, failed or cancelled payment would otherwise leave its session pending forever.
 * Shared by the plugin's webhook subscriber, the reconciliation job and the status route.
 */
import type { IPaymentModuleService, MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { MathBN, Modules, PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflowId, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../modules/nexi-ledger/types"
import { gatewayRefundMetadata, isCancelledCapture, recordedOperationIds } from "../core/recorded-refunds"
import type { NexiWebhookData } from "../providers/nexi/shared/webhook-data"
import { withPaymentLock } from "../staff/with-lock"

const SETTLED_STATUSES = new Set(["authorized", "captured"])

export type AppliedOutcome = "completed" | "marked_error" | "marked_canceled" | "refund_recorded" | "unchanged"

/** Marks the session error/canceled with the reason, unless it already got further. */
async function markSession(
  container: MedusaContainer,
  sessionId: string,
  status: "error" | "canceled",
  reason: string | undefined,
): Promise<boolean> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [session] = await payment.listPaymentSessions({ id: sessionId }, { select: ["id", "status", "data", "amount", "currency_code"] })
  // A late notification of an earlier attempt must not move a paid session backwards.
  if (!session || SETTLED_STATUSES.has(session.status) || session.status === status) return false
  await payment.updatePaymentSession({
    id: session.id,
    amount: session.amount,
    currency_code: session.currency_code,
    data: { ...session.data, status, reason },
    status,
  })
  return true
}

/**
 * @param includeSuccess run core's payment workflow for authorized/captured too; the webhook
 * subscriber leaves those to core's own subscriber, which receives the same event.
 */
export async function applyPaymentAction(
  container: MedusaContainer,
  result: WebhookActionResult,
  { includeSuccess }: { includeSuccess: boolean },
): Promise<AppliedOutcome> {
  const data = result.data as NexiWebhookData | undefined
  if (!data?.session_id) return "unchanged"
  switch (result.action) {
    case PaymentActions.AUTHORIZED:
    case PaymentActions.SUCCESSFUL: {
      if (!includeSuccess) return "unchanged"
      const engine = container.resolve(Modules.WORKFLOW_ENGINE)
      await engine.run(processPaymentWorkflowId, { input: result })
      return "completed"
    }
    case PaymentActions.FAILED:
      return (await markSession(container, data.session_id, "error", data.nexi_reason)) ? "marked_error" : "unchanged"
    case PaymentActions.CANCELED:
      return (await markSession(container, data.session_id, "canceled", data.nexi_reason)) ? "marked_canceled" : "unchanged"
    default:
      return (await recordGatewayRefunds(container, data)) ? "refund_recorded" : "unchanged"
  }
}

/**
 * A refund made in the gateway's back office reaches Medusa only through a notification, the
 * job or a staff Sync, which may all see it at once, and a notification may come three times.
 * Each gateway REFUND operation is recorded once, as a Medusa refund whose metadata names it
 * (recorded-refunds.ts): the provider sees that metadata and does not send it to the gateway.
 * Under the payment's lock, Medusa's refunds are read again and an operation is recorded only
 * when no Medusa refund names it, no refund Medusa sent holds it in the ledger, and Medusa's
 * refunds still fall short of the gateway's by at least its amount.
 */
async function recordGatewayRefunds(container: MedusaContainer, data: NexiWebhookData): Promise<boolean> {
  if (!data.nexi_refunded || MathBN.lte(data.nexi_refunded, 0) || !data.nexi_refunds?.length) return false
  const before = await refundsOfSession(container, data.session_id)
  // Most reads find nothing new: the lock is taken only when there is something to record.
  if (!before || MathBN.lte(missingAmount(data, before.refunds), 0)) return false
  return withPaymentLock(container, before.id, () => recordLocked(container, data), RECORD_WAIT_SECONDS)
}

/** A notification, the job and a Sync may queue behind each other for one payment: each waits its turn. */
const RECORD_WAIT_SECONDS = 60

type RefundRow = { id: string; amount: unknown; raw_amount?: unknown; metadata?: Record<string, unknown> | null }

async function refundsOfSession(container: MedusaContainer, sessionId: string): Promise<{ id: string; refunds: RefundRow[] } | undefined> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [record] = await payment.listPayments(
    { payment_session_id: sessionId },
    { relations: ["refunds"], select: ["id", "refunds.id", "refunds.amount", "refunds.raw_amount", "refunds.metadata"] },
  )
  return record && { id: record.id, refunds: (record.refunds ?? []) as unknown as RefundRow[] }
}

/** What the gateway refunded beyond Medusa's refunds (a cancelled capture is no gateway REFUND). */
function missingAmount(data: NexiWebhookData, refunds: RefundRow[]) {
  const known = refunds
    .filter((refund) => !isCancelledCapture(refund.metadata))
    .reduce((total, refund) => MathBN.add(total, (refund.raw_amount ?? refund.amount) as never), MathBN.convert(0))
  return MathBN.sub(data.nexi_refunded as string, known)
}

async function recordLocked(container: MedusaContainer, data: NexiWebhookData): Promise<boolean> {
  const current = await refundsOfSession(container, data.session_id)
  if (!current) return false
  let missing = missingAmount(data, current.refunds)
  const named = new Set(current.refunds.flatMap((refund) => recordedOperationIds(refund.metadata)))
  const sentByMedusa = await operationsMedusaSent(container, data.nexi_order_id)
  let recorded = false
  for (const operation of data.nexi_refunds ?? []) {
    if (named.has(operation.operation_id) || sentByMedusa.has(operation.operation_id) || MathBN.gt(operation.amount, missing)) continue
    await refundPaymentWorkflow(container).run({
      input: {
        payment_id: current.id,
        amount: operation.amount,
        note: "Refund made at the Nexi gateway outside Medusa",
        metadata: gatewayRefundMetadata(operation.operation_id),
        // Passed through to the refund record; the workflow's input type does not list it.
      } as { payment_id: string; amount: string; note: string },
    })
    missing = MathBN.sub(missing, operation.amount)
    recorded = true
  }
  return recorded
}

/** Gateway operations of refunds Medusa sent through the provider: the ledger hands each to its Medusa refund. */
async function operationsMedusaSent(container: MedusaContainer, orderId: string | undefined): Promise<Set<string>> {
  if (!orderId) return new Set()
  const writes = await container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE).writesOf(orderId)
  const held = writes.filter((write) => write.kind === "refund" && write.claimed_by && write.gateway_operation_id)
  return new Set(held.map((write) => write.gateway_operation_id as string))
}

/**
 * Applies what a Nexi provider read from the gateway to Medusa, for the paths core does not
 * cover. Core's webhook subscriber completes carts for `authorized` and `captured` only; a
 * declined, failed or cancelled payment would otherwise leave its session pending forever.
 * Shared by the plugin's webhook subscriber, the reconciliation job and the status route.
 */
import type { IPaymentModuleService, MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { MathBN, Modules, PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflowId, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { NexiWebhookData } from "../providers/nexi/shared/webhook-data"

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
 * A refund made in the gateway's back office reaches Medusa only through a notification or
 * the job. When the gateway has refunded more than Medusa knows of, the difference is recorded
 * as a refund whose metadata names the gateway operations; the provider sees that metadata
 * and does not send the refund to the gateway a second time.
 */
async function recordGatewayRefunds(container: MedusaContainer, data: NexiWebhookData): Promise<boolean> {
  if (!data.nexi_refunded || MathBN.lte(data.nexi_refunded, 0)) return false
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [record] = await payment.listPayments(
    { payment_session_id: data.session_id },
    { relations: ["refunds"], select: ["id", "refunds.id", "refunds.amount", "refunds.raw_amount", "refunds.metadata"] },
  )
  if (!record) return false
  // A cancelled capture is recorded in Medusa as a refund (src/staff/cancel-capture.ts),
  // but the gateway counts it as no REFUND: leave it out, or later back-office refunds hide behind it.
  const gatewayRefunds = (record.refunds ?? []).filter(
    (refund) => !(refund as { metadata?: Record<string, unknown> | null }).metadata?.nexi_cancelled_capture_id,
  )
  const known = gatewayRefunds.reduce(
    (total, refund) => MathBN.add(total, (refund as { raw_amount?: unknown }).raw_amount as never ?? refund.amount),
    MathBN.convert(0),
  )
  const missing = MathBN.sub(data.nexi_refunded, known)
  if (MathBN.lte(missing, 0)) return false
  await refundPaymentWorkflow(container).run({
    input: {
      payment_id: record.id,
      amount: missing,
      note: "Refund made at the Nexi gateway outside Medusa",
      metadata: { nexi_operation_id: (data.nexi_refund_operation_ids ?? []).join(",") || "unknown" },
      // Passed through to the refund record; the workflow's input type does not list it.
    } as { payment_id: string; amount: typeof missing; note: string },
  })
  return true
}

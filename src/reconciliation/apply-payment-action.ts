/**
 * Applies what a Nexi provider read from the gateway to Medusa, for the paths core does not
 * cover. Core's webhook subscriber completes carts for `authorized` and `captured` only; a
 * declined, failed or cancelled payment would otherwise leave its session pending forever.
 * Shared by the plugin's webhook subscriber, the reconciliation job and the status route.
 */
import type { IPaymentModuleService, MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { Modules, PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflowId } from "@medusajs/medusa/core-flows"

const SETTLED_STATUSES = new Set(["authorized", "captured"])

export type AppliedOutcome = "completed" | "marked_error" | "marked_canceled" | "unchanged"

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
  const sessionId = result.data?.session_id
  if (!sessionId) return "unchanged"
  const reason = (result.data as { nexi_reason?: string } | undefined)?.nexi_reason
  switch (result.action) {
    case PaymentActions.AUTHORIZED:
    case PaymentActions.SUCCESSFUL: {
      if (!includeSuccess) return "unchanged"
      const engine = container.resolve(Modules.WORKFLOW_ENGINE)
      await engine.run(processPaymentWorkflowId, { input: result })
      return "completed"
    }
    case PaymentActions.FAILED:
      return (await markSession(container, sessionId, "error", reason)) ? "marked_error" : "unchanged"
    case PaymentActions.CANCELED:
      return (await markSession(container, sessionId, "canceled", reason)) ? "marked_canceled" : "unchanged"
    default:
      return "unchanged"
  }
}

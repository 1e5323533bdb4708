/**
 * A capture or void the gateway made after Medusa had given up on it (its answer was lost,
 * Medusa rolled its own record back or, for an order cancel, went on without it, and the
 * ledger learnt later that it was made) is money Medusa does not show as it stands. It is
 * recorded through Medusa's own paths: a capture through the capture workflow, whose call to
 * the card provider takes the executed write over instead of sending a second capture; a void
 * by cancelling Medusa's payment, which the provider answers from the gateway's record without
 * sending anything. Refunds take the back-office path: the sync records them (MedusaChanges in
 * core/medusa-payments.ts).
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { isOrphaned, type MoneyWrite, type PaymentLedger } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"

function isOrphan(write: MoneyWrite): boolean {
  return (write.kind === "capture" || write.kind === "void") && isOrphaned(write)
}

export async function recordOrphanedWrites(
  container: MedusaContainer,
  ledger: PaymentLedger,
  gatewayRef: string,
): Promise<number> {
  const orphans = (await ledger.writesOf(gatewayRef)).filter(isOrphan)
  const attempt = orphans.length ? await ledger.findAttempt(gatewayRef) : undefined
  if (!attempt?.session_id) return 0
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [record] = await payment.listPayments(
    { payment_session_id: attempt.session_id },
    { select: ["id", "canceled_at"] },
  )
  if (!record) return 0
  for (const write of orphans) {
    if (write.kind === "capture") {
      await capturePaymentWorkflow(container).run({
        input: { payment_id: record.id, amount: minorToMajorString(write.amount_minor, write.currency) },
      })
      continue
    }
    if (!record.canceled_at) await payment.cancelPayment(record.id)
    await ledger.claimWrite(write.id, record.id)
  }
  return orphans.length
}

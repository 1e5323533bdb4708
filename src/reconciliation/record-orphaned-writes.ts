/**
 * A capture the gateway made after Medusa had given up on it (its answer was lost, Medusa
 * rolled its capture back, and the ledger learnt later that it was made) is money Medusa
 * does not show as captured. It is recorded through Medusa's own capture workflow; the card
 * provider then finds the executed write in the ledger and takes it over without sending a
 * second capture.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { PaymentLedger } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"

export async function recordOrphanedCaptures(container: MedusaContainer, ledger: PaymentLedger, gatewayRef: string): Promise<number> {
  const orphans = (await ledger.writesOf(gatewayRef)).filter(
    (write) => write.kind === "capture" && write.outcome === "executed" && !write.claimed_by && write.origin !== "release",
  )
  const attempt = orphans.length ? await ledger.findAttempt(gatewayRef) : undefined
  if (!attempt?.session_id) return 0
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [record] = await payment.listPayments({ payment_session_id: attempt.session_id }, { select: ["id"] })
  if (!record) return 0
  for (const write of orphans) {
    await capturePaymentWorkflow(container).run({
      input: { payment_id: record.id, amount: minorToMajorString(write.amount_minor, write.currency) },
    })
  }
  return orphans.length
}

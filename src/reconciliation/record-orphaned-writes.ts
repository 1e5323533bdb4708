/**
 * A void the gateway made after Medusa had given up on it (its answer was lost, Medusa went on
 * with the order cancel without it, and the ledger learnt later that it was made) is money
 * Medusa does not show as it stands. It is recorded by cancelling Medusa's payment, which the
 * provider answers from the gateway's record without sending anything. Captures and refunds
 * take the sync's path (MedusaChanges in core/medusa-payments.ts): a capture through the capture
 * workflow, whose call to the card provider takes the executed write over.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { isOrphaned, type MoneyWrite, type PaymentLedger } from "../modules/nexi-ledger/types"

function isOrphanedVoid(write: MoneyWrite): boolean {
  return write.kind === "void" && isOrphaned(write)
}

export async function recordOrphanedWrites(
  container: MedusaContainer,
  ledger: PaymentLedger,
  gatewayRef: string,
): Promise<number> {
  const voids = (await ledger.writesOf(gatewayRef)).filter(isOrphanedVoid)
  const attempt = voids.length ? await ledger.findAttempt(gatewayRef) : undefined
  if (!attempt?.session_id) return 0
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const [record] = await payment.listPayments(
    { payment_session_id: attempt.session_id },
    { select: ["id", "canceled_at"] },
  )
  if (!record) return 0
  for (const write of voids) {
    if (!record.canceled_at) await payment.cancelPayment(record.id)
    await ledger.claimWrite(write.id, record.id)
  }
  return voids.length
}

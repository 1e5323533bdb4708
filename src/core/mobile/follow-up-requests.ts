/**
 * The bodies of the refunds and reversals sent after a payment. The service's idempotency
 * replays an answer only for the identical request under the same key, and a write whose
 * answer was lost is settled exactly that way, possibly much later and from another code
 * path (the next refund, the reconciliation job). So a body must be rebuildable from what is
 * kept: the payment as it was sent, and the ledger's record of the writes before it. Pure.
 */
import type { ApmAmount, ApmMethod, Consumer, ExtendedEnvelope, InitializeRequest } from "../../apm/schemas"
import type { MoneyWrite } from "../../modules/nexi-ledger/types"
import { refundPurchaseAmount } from "./purchase-amounts"

/** What a refund or reversal repeats of the payment it acts on. */
export interface OriginalPayment {
  transactionId: string
  amount: ApmAmount
  consumer: Consumer
}

export interface Sender {
  merchantId: string
  method: ApmMethod
}

export interface RefundTotals {
  totalMinor: bigint
  vatMinor: bigint
}

/** Only the members the request defines: a loose answer's extra members would change the body. */
export function originalFromTransaction(
  transactionId: string,
  envelope: ExtendedEnvelope,
): OriginalPayment | undefined {
  const transaction = envelope.response?.request?.transaction
  if (!transaction?.consumer) return undefined
  const { currencyCode, vatAmount, nominalAmount, totalAmount } = transaction.amount
  return {
    transactionId,
    amount: { currencyCode, vatAmount, nominalAmount, totalAmount },
    consumer: { consumerId: transaction.consumer.consumerId, name: transaction.consumer.name },
  }
}

/** A refund of `refundMinor` after the refunds `before`, or a reversal of the whole payment with its terminal reference. */
export function followUpRequest(
  sender: Sender,
  original: OriginalPayment,
  what: { refundMinor: bigint; before: RefundTotals } | { terminalReference: string },
): InitializeRequest {
  return {
    merchantId: sender.merchantId,
    method: sender.method,
    purchaseAmount:
      "terminalReference" in what
        ? original.amount
        : refundPurchaseAmount({
            refundMinor: what.refundMinor,
            original: original.amount,
            refundedBefore: what.before,
          }),
    consumer: original.consumer,
    originalReference: original.transactionId,
    ...("terminalReference" in what ? { terminalReference: what.terminalReference } : {}),
  }
}

/**
 * The running totals before the write with `key`, and the VAT each executed refund carried.
 * Refunds the service made count, claimed by Medusa or not, in the ledger's order: a write is
 * sent only once every write before it is settled, so this set never changes under a write
 * and its body can be rebuilt. `floor` holds totals the ledger may not know (refunds sent
 * before the ledger existed, as the payment data counts them); the larger total wins.
 */
export function refundsBefore(
  writes: MoneyWrite[],
  key: string,
  original: ApmAmount,
  floor: RefundTotals = { totalMinor: 0n, vatMinor: 0n },
): { before: RefundTotals; vatOf: Map<string, bigint> } {
  const own = writes.findIndex((write) => write.idempotency_key === key)
  const earlier = own === -1 ? writes : writes.slice(0, own)
  const vatOf = new Map<string, bigint>()
  let totals: RefundTotals = { totalMinor: 0n, vatMinor: 0n }
  for (const write of earlier) {
    if (write.kind !== "apm_refund" || write.outcome !== "executed") continue
    const refundMinor = BigInt(write.amount_minor)
    const vat = BigInt(refundPurchaseAmount({ refundMinor, original, refundedBefore: totals }).vatAmount)
    vatOf.set(write.id, vat)
    totals = { totalMinor: totals.totalMinor + refundMinor, vatMinor: totals.vatMinor + vat }
  }
  return { before: floor.totalMinor > totals.totalMinor ? floor : totals, vatOf }
}

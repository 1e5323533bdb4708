/**
 * The refunds and reversals of a payment as the provider sends them: with the configured
 * merchant and scheme, through the ledger (apm-writes.ts), and rebuildable from the ledger
 * when a recorded one has to be settled by its key.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { ApmClient } from "../../apm/apm-client"
import type { ApmMethod, ExtendedEnvelope } from "../../apm/schemas"
import type { PaymentLedger, WriteOrigin } from "../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../money/amount"
import { idempotencyUuid } from "../idempotency"
import type { ApmOptions } from "../options"
import type { MedusaRows } from "../send-once"
import { type RefundDone, type RefundOrder, refundOnce } from "./apm-refund"
import { ApmWrites, type RequestOfWrite } from "./apm-writes"
import {
  type OriginalPayment,
  originalFromTransaction,
  type RefundTotals,
  refundRequest,
  refundsBefore,
  reversalRequest,
  type Sender,
} from "./follow-up-requests"

export interface FollowUpDeps {
  apm: ApmOptions
  client: ApmClient
  ledger: PaymentLedger
  /** Medusa's refund rows, read by the id a refund write carries. */
  rows: MedusaRows
  method: ApmMethod
  logger?: Logger
}

export interface ReversalOrder {
  origin: WriteOrigin
  /** What the idempotency key is derived from. */
  key: string
  medusaRef: string | null
  action: string
}

export class FollowUps {
  readonly writes: ApmWrites
  private readonly sender: Sender

  constructor(readonly deps: FollowUpDeps) {
    this.writes = new ApmWrites({
      client: deps.client,
      ledger: deps.ledger,
      rows: deps.rows,
      method: deps.method,
      logger: deps.logger,
    })
    this.sender = { merchantId: deps.apm.merchantId, method: deps.method }
  }

  /** `refunded`: what the payment data counts as refunded, for refunds the ledger may not know. */
  requestOf(original: OriginalPayment, refunded?: RefundTotals): RequestOfWrite {
    return (write, writes) =>
      write.kind === "apm_reversal"
        ? reversalRequest(this.sender, original, this.terminalReference("settle the reversal"))
        : refundRequest(
            this.sender,
            original,
            BigInt(write.amount_minor),
            refundsBefore(writes, write.idempotency_key, original.amount, refunded).before,
          )
  }

  refund(order: Pick<RefundOrder, "original" | "refundId" | "refundMinor" | "refunded">): Promise<RefundDone> {
    const { ledger, rows } = this.deps
    return refundOnce({
      ...order,
      writes: this.writes,
      ledger,
      rows,
      sender: this.sender,
      requestOf: this.requestOf(order.original, order.refunded),
    })
  }

  /** Reverses the whole payment; the reversal's transaction id. */
  reverse(original: OriginalPayment, order: ReversalOrder): Promise<string> {
    const request = reversalRequest(this.sender, original, this.terminalReference(order.action))
    const { currencyCode: currency, totalAmount } = original.amount
    return this.writes.send({
      write: {
        kind: "apm_reversal",
        origin: order.origin,
        idempotency_key: idempotencyUuid(order.key),
        gateway_ref: original.transactionId,
        target_ref: original.transactionId,
        amount_minor: String(totalAmount),
        currency,
        medusa_ref: order.medusaRef,
      },
      request,
      label: `reversal of ${minorToMajorString(totalAmount, currency)} ${currency}`,
      action: order.action,
    })
  }

  /** The payment as the service holds it, for a transaction no live session describes. */
  heldAtService(transactionId: string, envelope: ExtendedEnvelope, action: string): OriginalPayment {
    const original = originalFromTransaction(transactionId, envelope)
    if (original) return original
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: the mobile payment service does not say who paid transaction ${transactionId}, and a refund or reversal must name the same consumer.`,
    )
  }

  private terminalReference(action: string): string {
    if (this.deps.apm.terminalReference) return this.deps.apm.terminalReference
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not ${action}: the mobile payment service needs a terminal reference for a reversal. Set the Nexi provider option apm.terminalReference.`,
    )
  }
}

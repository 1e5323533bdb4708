/**
 * Medusa does not pass the amount of a capture to capturePayment, nor the details of a
 * refund or session beyond their ids. The provider lives in the payment module's container,
 * whose record services know them: this is the one place that reads them, so a change in
 * Medusa's internals is mended here only. Reads only; Medusa stays the owner of its rows.
 */
import { MathBN } from "@medusajs/framework/utils"

interface RecordService {
  retrieve(id: string, config?: Record<string, unknown>): Promise<Record<string, unknown>>
  list(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<Record<string, unknown>[]>
}

export interface SessionRecord {
  id: string
  status: string
  data: Record<string, unknown>
  amount: unknown
  currency_code: string
  created_at?: Date | string
  authorized_at?: Date | string | null
}

export class PaymentRecords {
  constructor(private readonly container: Record<string, unknown>) {}

  private service(name: string): RecordService | undefined {
    try {
      return this.container[name] as RecordService | undefined
    } catch {
      return undefined
    }
  }

  /** The amount of the capture Medusa just created, in major units, or undefined if unknown. */
  async captureAmount(captureId: string | undefined): Promise<string | undefined> {
    const captures = this.service("captureService")
    if (!captureId || !captures) return undefined
    const capture = await captures.retrieve(captureId, { select: ["id", "amount", "raw_amount"] }).catch(() => undefined)
    return capture ? MathBN.convert((capture.raw_amount ?? capture.amount) as never).toString() : undefined
  }

  /** Sum of all captures Medusa holds for the payment of this capture (this one included), in major units. */
  async capturedTotalOfPaymentOf(captureId: string | undefined): Promise<string | undefined> {
    const captures = this.service("captureService")
    if (!captureId || !captures) return undefined
    const capture = await captures.retrieve(captureId, { relations: ["payment", "payment.captures"] }).catch(() => undefined)
    const siblings = (capture?.payment as { captures?: Array<Record<string, unknown>> } | undefined)?.captures
    if (!siblings) return undefined
    return siblings.reduce((total, row) => MathBN.add(total, (row.raw_amount ?? row.amount) as never), MathBN.convert(0)).toString()
  }

  /** Metadata of the refund Medusa just created (refunds recorded from the gateway carry its operation id). */
  async refundMetadata(refundId: string | undefined): Promise<Record<string, unknown> | undefined> {
    const refunds = this.service("refundService")
    if (!refundId || !refunds) return undefined
    const refund = await refunds.retrieve(refundId, { select: ["id", "metadata"] }).catch(() => undefined)
    return (refund?.metadata as Record<string, unknown> | null | undefined) ?? undefined
  }

  async session(sessionId: string): Promise<SessionRecord | undefined> {
    const sessions = this.service("paymentSessionService")
    if (!sessions) return undefined
    const session = await sessions
      .retrieve(sessionId, {
        select: ["id", "status", "data", "amount", "raw_amount", "currency_code", "created_at", "authorized_at"],
      })
      .catch(() => undefined)
    return session as SessionRecord | undefined
  }
}

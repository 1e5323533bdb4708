/**
 * Medusa does not pass the amount of a capture to capturePayment, nor the details of a
 * refund or session beyond their ids. The provider lives in the payment module's container,
 * whose record services know them: this is the one place that reads them, so a change in
 * Medusa's internals is mended here only. Reads only; Medusa stays the owner of its rows.
 *
 * Every read fails closed: a record that cannot be read is an error naming it, never a
 * default. A capture amount that falls back to the whole payment captures too much; refund
 * metadata that reads as empty sends a back-office refund a second time.
 */
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import type { MoneyWrite } from "../modules/nexi-ledger/types"

interface RecordService {
  retrieve(id: string, config?: Record<string, unknown>): Promise<Record<string, unknown>>
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

function isNotFound(error: unknown): boolean {
  return error instanceof MedusaError && error.type === MedusaError.Types.NOT_FOUND
}

/** The record service of the Medusa row each kind of write is sent for. */
const ROW_SERVICES: Partial<Record<MoneyWrite["kind"], string>> = {
  capture: "captureService",
  refund: "refundService",
  apm_refund: "refundService",
}

export class PaymentRecords {
  constructor(private readonly container: Record<string, unknown>) {}

  private async read(serviceName: string, what: string, id: string | undefined, config: Record<string, unknown>) {
    if (!id) throw unreadable(what, "Medusa passed no id for it")
    let service: RecordService | undefined
    try {
      service = this.container[serviceName] as RecordService | undefined
    } catch {
      service = undefined
    }
    if (!service) throw unreadable(`${what} ${id}`, `the payment module has no ${serviceName}`)
    try {
      return await service.retrieve(id, config)
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw unreadable(`${what} ${id}`, (error as Error).message)
    }
  }

  /** The amount of the capture Medusa just created, in major units. */
  async captureAmount(captureId: string | undefined): Promise<string> {
    const capture = await this.read("captureService", "the Medusa capture", captureId, {
      select: ["id", "amount", "raw_amount"],
    })
    if (!capture) throw unreadable(`the Medusa capture ${captureId}`, "it does not exist")
    return MathBN.convert((capture.raw_amount ?? capture.amount) as never).toString()
  }

  /** Sum of all captures Medusa holds for the payment of this capture (this one included), in major units. */
  capturedTotalOfPaymentOf(captureId: string | undefined): Promise<string> {
    return this.totalOfPaymentOf("capture", captureId)
  }

  /** Sum of the payment's captures before this one (all but it), in major units: what money by totals starts from. */
  capturedBefore(captureId: string | undefined): Promise<string> {
    return this.totalOfPaymentOf("capture", captureId, { leaveOut: captureId })
  }

  /** Sum of the payment's refunds before this one (all but it), in major units. */
  refundedBefore(refundId: string | undefined): Promise<string> {
    return this.totalOfPaymentOf("refund", refundId, { leaveOut: refundId })
  }

  /**
   * The refund's payment as money by totals reads it, in one read: its refunds before this one
   * and its captures, in major units.
   */
  async refundTotals(refundId: string | undefined): Promise<{ refundedBefore: string; captured: string }> {
    const payment = await this.paymentOf("refund", refundId, ["refunds", "captures"])
    return {
      refundedBefore: sumOf(payment, "refunds", `Medusa refund ${refundId}`, refundId),
      captured: sumOf(payment, "captures", `Medusa refund ${refundId}`),
    }
  }

  private async totalOfPaymentOf(
    kind: "capture" | "refund",
    id: string | undefined,
    { leaveOut }: { leaveOut?: string } = {},
  ) {
    const rows = `${kind}s` as const
    return sumOf(await this.paymentOf(kind, id, [rows]), rows, `Medusa ${kind} ${id}`, leaveOut)
  }

  private async paymentOf(kind: "capture" | "refund", id: string | undefined, rows: string[]) {
    const record = await this.read(`${kind}Service`, `the Medusa ${kind}`, id, {
      relations: ["payment", ...rows.map((name) => `payment.${name}`)],
    })
    return record?.payment as PaymentRows | undefined
  }

  /** Metadata of the refund Medusa just created (refunds recorded from the gateway carry its operation id). */
  async refundMetadata(refundId: string | undefined): Promise<Record<string, unknown>> {
    const refund = await this.read("refundService", "the Medusa refund", refundId, { select: ["id", "metadata"] })
    if (!refund) throw unreadable(`the Medusa refund ${refundId}`, "it does not exist")
    return (refund.metadata as Record<string, unknown> | null | undefined) ?? {}
  }

  /**
   * Whether Medusa still holds the capture or refund row a write was sent for, read by the
   * id the write carries. Medusa deletes its row when the provider throws, but a process
   * killed mid-call leaves it standing: only this read tells the two apart. Other kinds of
   * write have no row of their own (false). A failed read throws.
   */
  async holdsRowOf(write: Pick<MoneyWrite, "kind" | "medusa_ref">): Promise<boolean> {
    const service = ROW_SERVICES[write.kind]
    if (!service || !write.medusa_ref) return false
    return (await this.read(service, `the Medusa ${write.kind}`, write.medusa_ref, { select: ["id"] })) !== undefined
  }

  /** The session, or undefined when Medusa holds none with this id (deleted). A failed read throws. */
  async session(sessionId: string): Promise<SessionRecord | undefined> {
    const session = await this.read("paymentSessionService", "the payment session", sessionId, {
      select: ["id", "status", "data", "amount", "raw_amount", "currency_code", "created_at", "authorized_at"],
    })
    return session as SessionRecord | undefined
  }
}

/**
 * The same records read from outside the payment module (the sync, which runs in the store's
 * own container), through the module's public service: the row services it offers by listing.
 */
export function paymentRecordsOf(payments: IPaymentModuleService): PaymentRecords {
  const one =
    (what: string, list: (filters: { id: string }, config: Record<string, unknown>) => Promise<unknown[]>) =>
    async (id: string, config: Record<string, unknown>) => {
      const [row] = await list({ id }, config)
      if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `${what} ${id} was not found`)
      return row as Record<string, unknown>
    }
  return new PaymentRecords({
    captureService: { retrieve: one("Capture", (filters, config) => payments.listCaptures(filters, config)) },
    refundService: { retrieve: one("Refund", (filters, config) => payments.listRefunds(filters, config)) },
    paymentSessionService: {
      retrieve: (id: string, config: Record<string, unknown>) => payments.retrievePaymentSession(id, config),
    },
  })
}

type PaymentRows = Record<string, Array<Record<string, unknown>> | undefined>

/** The sum of the payment's rows of one kind, but `leaveOut`, in major units; rows that were not read fail closed. */
function sumOf(payment: PaymentRows | undefined, rows: "captures" | "refunds", of: string, leaveOut?: string): string {
  const siblings = payment?.[rows]
  if (!siblings) throw unreadable(`the ${rows} of the payment of ${of}`, "they were not found")
  return siblings
    .filter((row) => leaveOut === undefined || row.id !== leaveOut)
    .reduce((total, row) => MathBN.add(total, (row.raw_amount ?? row.amount) as never), MathBN.convert(0))
    .toString()
}

function unreadable(what: string, why: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `${what} could not be read (${why}); nothing was sent to the gateway.`,
  )
}

// The one convention for Medusa refunds that record money the gateway moved already, and so
// are never sent to it: their metadata names the gateway operations they record. Written when
// the plugin records a refund made in the gateway's back office (medusa-changes.ts) and when
// staff cancel a capture (src/staff/cancel-capture.ts); read by the card's and the mobile
// payment's refunds (card-money.ts, apm-sessions.ts), and by the back-office recording, which
// records each gateway operation once.

/** The gateway operation (or operations, comma-separated, as earlier versions wrote) a refund records. */
export const NEXI_OPERATION_KEY = "nexi_operation_id"
/** A staff capture cancel, recorded as a refund: the gateway counts it as no REFUND. */
export const CANCELLED_CAPTURE_KEY = "nexi_cancelled_capture_id"

type Metadata = Record<string, unknown> | null | undefined

/** The gateway operations the refund records; none for a refund Medusa asked the provider to send. */
export function recordedOperationIds(metadata: Metadata): string[] {
  const recorded = metadata?.[NEXI_OPERATION_KEY]
  return recorded ? String(recorded).split(",").filter(Boolean) : []
}

export function isCancelledCapture(metadata: Metadata): boolean {
  return Boolean(metadata?.[CANCELLED_CAPTURE_KEY])
}

/** The metadata of a refund recording one gateway REFUND operation made outside Medusa. */
export function gatewayRefundMetadata(operationId: string): Record<string, string> {
  return { [NEXI_OPERATION_KEY]: operationId }
}

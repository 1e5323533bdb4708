/**
 * Real refunds may answer PENDING and settle later, with a notification. Tests choose:
 * "immediate" (the default) records REFUNDED at once; "pending" records PENDING, which
 * settles after settleAfterMs, or only when POST /__sim/refunds/settle asks when it is absent.
 */
import { z } from "zod"
import type { SimClock } from "../clock"
import type { DeliveryOutcome } from "../notifications"
import type { MerchantNotices } from "./merchant-notices"
import type { GatewayStore, OperationRecord, StoredOperation } from "./store"

export const RefundSettlementSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("immediate") }),
  z.strictObject({ mode: z.literal("pending"), settleAfterMs: z.number().int().min(0).max(86_400_000).optional() }),
])
export type RefundSettlement = z.infer<typeof RefundSettlementSchema>

export interface SettledRefund {
  operation: OperationRecord
  notification?: DeliveryOutcome
}

export class RefundSettler {
  private setting: RefundSettlement
  private timers = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly defaultSetting: RefundSettlement,
    private readonly store: GatewayStore,
    private readonly notices: MerchantNotices,
    private readonly clock: SimClock,
  ) {
    this.setting = defaultSetting
  }

  get(): RefundSettlement {
    return this.setting
  }

  set(setting: RefundSettlement): void {
    this.setting = setting
  }

  initialResult(): "REFUNDED" | "PENDING" {
    return this.setting.mode === "immediate" ? "REFUNDED" : "PENDING"
  }

  /** Called for a refund just recorded as PENDING: schedules its settlement if the setting says when. */
  track(refund: StoredOperation): void {
    if (this.setting.mode !== "pending" || this.setting.settleAfterMs === undefined) return
    refund.settlesAt = new Date(this.clock.now().getTime() + this.setting.settleAfterMs).toISOString()
    this.store.changed()
    this.schedule(refund)
  }

  /** After a restart: pending refunds with a settlement time settle when it comes (at once if past). */
  resume(): void {
    for (const refund of this.store.pendingRefunds()) if (refund.settlesAt) this.schedule(refund)
  }

  /** Settles the pending refunds (all, or the one named) now; waits for their notifications. */
  async settle(operationId?: string): Promise<SettledRefund[]> {
    const due = this.store
      .pendingRefunds()
      .filter((refund) => operationId === undefined || refund.record.operationId === operationId)
    return Promise.all(due.map((refund) => this.settleOne(refund)))
  }

  /** Back to the start-up setting, with no timers left. */
  reset(): void {
    this.close()
    this.setting = this.defaultSetting
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }

  private schedule(refund: StoredOperation): void {
    const delay = Math.max(0, Date.parse(refund.settlesAt!) - this.clock.now().getTime())
    const timer = setTimeout(() => void this.settleOne(refund), delay)
    timer.unref()
    this.timers.set(refund.record.operationId, timer)
  }

  private async settleOne(refund: StoredOperation): Promise<SettledRefund> {
    clearTimeout(this.timers.get(refund.record.operationId))
    this.timers.delete(refund.record.operationId)
    refund.record.operationResult = "REFUNDED"
    refund.settlesAt = undefined
    this.store.changed()
    const notification = await this.notices.notify(this.store.orderOf(refund), refund.record)
    return { operation: refund.record, ...(notification ? { notification } : {}) }
  }
}

/**
 * Pushes gateway notifications to merchants' notificationUrl, the way the real gateway does:
 * one POST of JSON, no retries (docs/contract/gateway.md). Tests can make delivery misbehave (drop,
 * duplicate, delay, reorder) and can flush to wait until every delivery has settled, so
 * assertions about notifications never depend on timing.
 */
import { z } from "zod"
import type { SimClock } from "./clock"

export interface NotificationRecord {
  time: string
  url: string
  body: unknown
  status?: number
  error?: string
  /** 1 for the first delivery of a notification, 2.. for the copies a "copies" fault adds. */
  attempt: number
}

/** What became of the first delivery attempt of one notification. */
export type DeliveryOutcome =
  | { url: string; status: number }
  | { url: string; error: string }
  /** Held back by a "reverseBatch" fault; delivered when the batch fills up or on flush. */
  | { url: string; held: true }

export const NotificationFaultSchema = z.strictObject({
  /** Do not send the next N notifications at all. */
  drop: z.number().int().min(0).optional(),
  /** Send every notification this many times (2 = each arrives twice). */
  copies: z.number().int().min(1).max(10).optional(),
  /** Wait this long before each delivery. */
  delayMs: z.number().int().min(0).max(600_000).optional(),
  /** Hold notifications until N are collected, then deliver them newest first. */
  reverseBatch: z.number().int().min(2).max(100).optional(),
})
export type NotificationFaults = z.infer<typeof NotificationFaultSchema>

const DELIVERY_TIMEOUT_MS = 10_000

interface QueuedNotification {
  url: string
  body: unknown
  settle: (outcome: DeliveryOutcome) => void
}

export class NotificationSender {
  private records: NotificationRecord[] = []
  private faults: NotificationFaults = {}
  private held: QueuedNotification[] = []
  private inFlight = new Set<Promise<unknown>>()
  /** Aborted on reset and close, so stale deliveries neither linger nor log into a fresh run. */
  private lifetime = new AbortController()

  constructor(private readonly clock: SimClock) {}

  /** Queues one notification; resolves with the first attempt's outcome (or "held"). */
  send(url: string, body: unknown): Promise<DeliveryOutcome> {
    if ((this.faults.drop ?? 0) > 0) {
      this.faults.drop = (this.faults.drop ?? 0) - 1
      const error = "dropped by fault injection"
      this.records.push({ time: this.clock.now().toISOString(), url, body, error, attempt: 1 })
      return Promise.resolve({ url, error })
    }
    return new Promise<DeliveryOutcome>((settle) => {
      const queued = { url, body, settle }
      const batchSize = this.faults.reverseBatch
      if (batchSize === undefined) {
        this.track(this.deliver(queued))
        return
      }
      this.held.push(queued)
      settle({ url, held: true })
      if (this.held.length >= batchSize) this.releaseHeld()
    })
  }

  /** Releases any held batch and waits until every queued delivery has been attempted. */
  async flush(): Promise<void> {
    this.releaseHeld()
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  setFaults(faults: NotificationFaults): void {
    this.faults = { ...faults }
  }

  getFaults(): NotificationFaults {
    return { ...this.faults }
  }

  /** Clearing faults also releases a held batch: nothing stays stuck behind a removed fault. */
  clearFaults(): void {
    this.releaseHeld()
    this.faults = {}
  }

  list(): NotificationRecord[] {
    return [...this.records]
  }

  /** Forgets records, faults and held notifications, and abandons deliveries under way. */
  reset(): void {
    this.lifetime.abort()
    this.lifetime = new AbortController()
    this.records = []
    this.faults = {}
    this.held = []
    this.inFlight.clear()
  }

  close(): void {
    this.lifetime.abort()
  }

  private releaseHeld(): void {
    const batch = this.held.reverse()
    this.held = []
    // One after the other, so the receiver really sees them newest first.
    this.track(
      (async () => {
        for (const queued of batch) await this.deliver({ ...queued, settle: () => {} })
      })(),
    )
  }

  private track(delivery: Promise<unknown>): void {
    this.inFlight.add(delivery)
    void delivery.finally(() => this.inFlight.delete(delivery))
  }

  private async deliver(queued: QueuedNotification): Promise<void> {
    const signal = this.lifetime.signal
    const records = this.records
    const copies = this.faults.copies ?? 1
    const delayMs = this.faults.delayMs ?? 0
    for (let attempt = 1; attempt <= copies; attempt++) {
      if (delayMs > 0) await abortableDelay(delayMs, signal)
      const outcome = await this.post(queued.url, queued.body, signal)
      if (signal.aborted) return queued.settle({ url: queued.url, error: "simulator reset or closed" })
      records.push({ time: this.clock.now().toISOString(), url: queued.url, body: queued.body, ...outcome, attempt })
      if (attempt === 1) queued.settle({ url: queued.url, ...outcome })
    }
  }

  private async post(url: string, body: unknown, signal: AbortSignal): Promise<{ status: number } | { error: string }> {
    if (signal.aborted) return { error: "simulator reset or closed" }
    try {
      const answer = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      })
      // Drain the body so the connection is released.
      await answer.arrayBuffer()
      return { status: answer.status }
    } catch (error) {
      return { error: describeFetchError(error) }
    }
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    signal.addEventListener("abort", done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener("abort", done)
      resolve()
    }
  })
}

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as Error & { cause?: unknown }).cause
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message
}

/**
 * What reached the simulator, for tests that assert "the plugin called capture once".
 * Only routing facts are kept: never API keys, card data or bodies, which may hold secrets.
 */
export interface RecordedRequest {
  time: string
  method: string
  /** The full URL path without the query string. */
  path: string
  /** 0 when no answer was sent (a "hang" or "reset" fault). */
  status: number
  correlationId?: string
  idempotencyKey?: string
  /** The injected fault that shaped the answer, if any. */
  fault?: string
}

export interface RequestLogView {
  requests: RecordedRequest[]
  counts: Record<string, number>
}

export class RequestLog {
  private entries: RecordedRequest[] = []

  record(entry: RecordedRequest): void {
    this.entries.push(entry)
  }

  view(): RequestLogView {
    const counts: Record<string, number> = {}
    for (const { method, path } of this.entries) {
      const key = `${method} ${path}`
      counts[key] = (counts[key] ?? 0) + 1
    }
    return { requests: [...this.entries], counts }
  }

  clear(): void {
    this.entries = []
  }
}

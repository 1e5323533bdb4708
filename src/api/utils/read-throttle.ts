/**
 * At most one read of the service per key every `intervalMs`, in this process: while a read
 * runs, every caller with the same key waits for that one; after it, callers within the
 * interval get no read at all and answer from what the last one stored. The status route
 * uses it per payment session, so a storefront polling fast, many tabs, or a hostile client
 * cannot turn polls into gateway traffic.
 *
 * Memory is bounded: at most `maxKeys` keys are remembered, the least recently used one
 * forgotten first (a Map keeps insertion order; a use moves the key to the end).
 */
interface Entry {
  /** When the last read started (ms). */
  startedAt: number
  inFlight?: Promise<void>
}

export interface ReadThrottleOptions {
  intervalMs: number
  maxKeys: number
  now?: () => number
}

export class ReadThrottle {
  private readonly entries = new Map<string, Entry>()
  private readonly now: () => number

  constructor(private readonly options: ReadThrottleOptions) {
    this.now = options.now ?? Date.now
  }

  /**
   * Runs `read` unless one for `key` runs now (then waits for it) or started less than the
   * interval ago (then returns at once). A failed read counts as a read: a service that is
   * down is not asked more often. The read's error goes to its own caller only.
   */
  async run(key: string, read: () => Promise<void>): Promise<"read" | "joined" | "skipped"> {
    const entry = this.entries.get(key)
    if (entry) {
      this.touch(key, entry)
      if (entry.inFlight) {
        try {
          await entry.inFlight
        } catch {
          // The read's error is its own caller's; a joiner answers from what Medusa holds.
        }
        return "joined"
      }
      if (this.now() - entry.startedAt < this.options.intervalMs) return "skipped"
    }
    const fresh: Entry = { startedAt: this.now() }
    const inFlight = read().finally(() => {
      fresh.inFlight = undefined
    })
    fresh.inFlight = inFlight
    this.touch(key, fresh)
    await inFlight
    return "read"
  }

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key)
    this.entries.set(key, entry)
    while (this.entries.size > this.options.maxKeys) {
      const oldest = this.entries.keys().next().value as string
      this.entries.delete(oldest)
    }
  }
}

/**
 * At most one read of the service per key every `intervalMs`, in this process: while a read
 * runs, every caller with the same key waits for that one; after it, callers within the
 * interval get no read at all and answer from what the last one found. The status route uses
 * it per payment session and the payment link route per link, so a storefront polling fast,
 * many tabs, or a hostile client cannot turn polls into gateway traffic.
 *
 * Memory is bounded: at most `maxKeys` keys are remembered, the least recently used one
 * forgotten first (a Map keeps insertion order; a use moves the key to the end).
 */
interface Entry<T> {
  /** When the last read started (ms). */
  startedAt: number
  /** The last read: running, or settled with its value or its error. */
  read: Promise<T>
  running: boolean
}

export interface ReadThrottleOptions {
  intervalMs: number
  maxKeys: number
  now?: () => number
}

export class ReadThrottle<T = void> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly now: () => number

  constructor(private readonly options: ReadThrottleOptions) {
    this.now = options.now ?? Date.now
  }

  /**
   * Runs `read` unless one for `key` runs now (then waits for it) or started less than the
   * interval ago (then returns at once). A failed read counts as a read: a service that is
   * down is not asked more often. The read's error goes to its own caller only: the others
   * answer from what the caller stored (the status route: Medusa's session).
   */
  async run(key: string, read: () => Promise<T>): Promise<"read" | "joined" | "skipped"> {
    const { how, entry } = this.claim(key, read)
    if (how === "read") await entry.read
    if (how === "joined")
      await entry.read.catch(() => {
        // The read's error is its own caller's; a joiner answers from what Medusa holds.
      })
    return how
  }

  /**
   * The value of the read for `key`: a new one, the one running, or the last one within the
   * interval, its error included, for a caller that stores nothing of its own.
   */
  latest(key: string, read: () => Promise<T>): Promise<T> {
    return this.claim(key, read).entry.read
  }

  private claim(key: string, read: () => Promise<T>): { how: "read" | "joined" | "skipped"; entry: Entry<T> } {
    const known = this.entries.get(key)
    if (known) {
      this.touch(key, known)
      if (known.running) return { how: "joined", entry: known }
      if (this.now() - known.startedAt < this.options.intervalMs) return { how: "skipped", entry: known }
    }
    const startedAt = this.now()
    const running = read().finally(() => {
      entry.running = false
    })
    const entry: Entry<T> = { startedAt, read: running, running: true }
    // Kept for later callers, who may never come: its error is not an unhandled rejection here.
    running.catch(() => undefined)
    this.touch(key, entry)
    return { how: "read", entry }
  }

  private touch(key: string, entry: Entry<T>): void {
    this.entries.delete(key)
    this.entries.set(key, entry)
    while (this.entries.size > this.options.maxKeys) {
      const oldest = this.entries.keys().next().value as string
      this.entries.delete(oldest)
    }
  }
}

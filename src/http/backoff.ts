/**
 * Exponential backoff with full jitter: the delay before retry n (1-based) is uniform in
 * [0, min(cap, base * 2^(n-1))]. Full jitter rather than a fixed ladder so that many
 * clients failing together (a gateway hiccup during a sale) do not retry in lockstep.
 */
export interface BackoffOptions {
  baseDelayMs: number
  maxDelayMs: number
  /** Uniform in [0, 1); injectable so tests can pin the delay. */
  random?: () => number
}

export function backoffDelayMs(
  retry: number,
  { baseDelayMs, maxDelayMs, random = Math.random }: BackoffOptions,
): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1))
  return Math.floor(random() * ceiling)
}

export type Sleep = (ms: number) => Promise<void>

export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

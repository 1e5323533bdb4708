/**
 * When the reconciliation job reads a gateway order or transaction again, and when it stops.
 * Each pending attempt is read with a growing pause (1, 2, 4 ... minutes, at most an hour),
 * so thousands of abandoned carts cost a few reads an hour each instead of one a minute, and
 * a paid attempt whose notification was lost is still found within minutes.
 */
import type { AttemptPatch, PaymentAttempt } from "../modules/nexi-ledger/types"
import type { PaymentStatus } from "./session-data"

/** Attempts older than this are no longer read: hosted pages and app approvals expire long before. */
export const MAX_ATTEMPT_AGE_MS = 24 * 60 * 60 * 1000
const FIRST_PAUSE_MS = 60 * 1000
const LONGEST_PAUSE_MS = 60 * 60 * 1000

export function pauseAfter(checks: number): number {
  return Math.min(FIRST_PAUSE_MS * 2 ** Math.min(checks, 16), LONGEST_PAUSE_MS)
}

/**
 * What the ledger should hold for an attempt its live session owns, after a read found `status`.
 * `payableUntil`: a payment link can be paid until its expiry (7 to 90 days): watched until then.
 */
export function watchAfterRead(
  attempt: Pick<PaymentAttempt, "checks" | "created_at">,
  status: PaymentStatus,
  now: Date,
  reason?: string,
  payableUntil?: Date,
): AttemptPatch {
  if (status === "authorized" || status === "captured") return { state: "paid", next_check_at: null }
  if (status === "error" || status === "canceled") return { state: "closed", next_check_at: null, note: reason ?? null }
  const watchedUntil = Math.max(
    new Date(attempt.created_at).getTime() + MAX_ATTEMPT_AGE_MS,
    payableUntil?.getTime() ?? 0,
  )
  if (now.getTime() > watchedUntil) {
    const note = payableUntil
      ? "Never paid; its payment link expired."
      : "Never paid; no longer watched after 24 hours."
    return { state: "closed", next_check_at: null, note }
  }
  return { checks: attempt.checks + 1, next_check_at: new Date(now.getTime() + pauseAfter(attempt.checks)) }
}

/** Whether `patch` would change nothing on `attempt`: a paid attempt notified again needs no write. */
export function changesNothing(attempt: PaymentAttempt, patch: AttemptPatch): boolean {
  return Object.entries(patch).every(([key, value]) => {
    const current = attempt[key as keyof PaymentAttempt]
    if (value instanceof Date || current instanceof Date) return false
    return current === value
  })
}

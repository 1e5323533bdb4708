/**
 * When the reconciliation job reads a gateway order or transaction again, and when it stops.
 * Each pending attempt is read with a growing pause (1, 2, 4 ... minutes, at most an hour),
 * so thousands of abandoned carts cost a few reads an hour each instead of one a minute, and
 * a paid attempt whose notification was lost is still found within minutes.
 *
 * A paid attempt is read again too, more and more rarely for about a month: a refund, void or
 * capture cancel made in Nexi's back office whose notification was lost is then recorded in
 * Medusa with nobody acting (the sync records what Medusa lacks, gateway-money-records.ts).
 */
import type { AttemptPatch, PaymentAttempt } from "../modules/nexi-ledger/types"
import type { PaymentStatus } from "./session-data"

/** Attempts older than this are no longer read: hosted pages and app approvals expire long before. */
export const MAX_ATTEMPT_AGE_MS = 24 * 60 * 60 * 1000
const FIRST_PAUSE_MS = 60 * 1000
const LONGEST_PAUSE_MS = 60 * 60 * 1000

/** The pause before the next read: `first`, doubled with each read, at most `longest`. */
export function pauseAfter(checks: number, first = FIRST_PAUSE_MS, longest = LONGEST_PAUSE_MS): number {
  return Math.min(first * 2 ** Math.min(checks, 16), longest)
}

/** A paid attempt's reads: after 1, 2, 4, 8 and 16 hours, then daily, 35 in all (about a month). */
const PAID_FIRST_PAUSE_MS = 60 * 60 * 1000
const PAID_LONGEST_PAUSE_MS = 24 * 60 * 60 * 1000
export const PAID_CHECKS = 35

/** An attempt turned paid: its reads start again from the first, an hour from now. */
export function paidWatch(now: Date): AttemptPatch {
  return { state: "paid", checks: 0, next_check_at: new Date(now.getTime() + PAID_FIRST_PAUSE_MS) }
}

/** The job read a paid attempt: the next read, or none after the last. */
export function watchPaid(attempt: Pick<PaymentAttempt, "checks">, now: Date): AttemptPatch {
  const checks = attempt.checks + 1
  if (checks >= PAID_CHECKS) return { checks, next_check_at: null }
  const pause = pauseAfter(checks, PAID_FIRST_PAUSE_MS, PAID_LONGEST_PAUSE_MS)
  return { checks, next_check_at: new Date(now.getTime() + pause) }
}

/**
 * What the ledger should hold for an attempt its live session owns, after a read found `status`.
 * `payableUntil`: a payment link can be paid until its expiry (7 to 90 days): watched until then.
 */
export function watchAfterRead(
  attempt: Pick<PaymentAttempt, "checks" | "created_at" | "state">,
  status: PaymentStatus,
  now: Date,
  reason?: string,
  payableUntil?: Date,
): AttemptPatch {
  // Paid already (a notification's copy, the job's read of a paid order): its reads go on as they were.
  if (status === "authorized" || status === "captured") return attempt.state === "paid" ? {} : paidWatch(now)
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

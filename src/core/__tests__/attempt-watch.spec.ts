import { MAX_ATTEMPT_AGE_MS, PAID_CHECKS, pauseAfter, watchAfterRead, watchPaid } from "../attempt-watch"

const NOW = new Date("2026-11-24T12:00:00Z")

describe("watchAfterRead", () => {
  it("pauses 1, 2, 4 ... minutes between reads of a pending attempt, at most an hour", () => {
    expect([0, 1, 2, 3, 5, 6, 7, 30].map((checks) => pauseAfter(checks) / 60_000)).toEqual([1, 2, 4, 8, 32, 60, 60, 60])
  })

  it("schedules the next read of a pending attempt and counts the read", () => {
    const patch = watchAfterRead(
      { checks: 2, created_at: new Date(NOW.getTime() - 60_000), state: "open" },
      "pending",
      NOW,
    )
    expect(patch).toEqual({ checks: 3, next_check_at: new Date(NOW.getTime() + 4 * 60_000) })
  })

  const IN_AN_HOUR = new Date(NOW.getTime() + 60 * 60_000)

  it.each([
    ["authorized", { state: "paid", checks: 0, next_check_at: IN_AN_HOUR }],
    ["captured", { state: "paid", checks: 0, next_check_at: IN_AN_HOUR }],
    ["error", { state: "closed", next_check_at: null, note: "declined" }],
    ["canceled", { state: "closed", next_check_at: null, note: "declined" }],
  ] as const)("moves the watch of an attempt that is %s", (status, expected) => {
    expect(watchAfterRead({ checks: 4, created_at: NOW, state: "open" }, status, NOW, "declined")).toEqual(expected)
  })

  it("leaves the reads of an attempt that was paid already as they were", () => {
    expect(watchAfterRead({ checks: 3, created_at: NOW, state: "paid" }, "captured", NOW)).toEqual({})
  })

  it("stops watching a paid attempt the gateway shows voided since", () => {
    const patch = watchAfterRead({ checks: 3, created_at: NOW, state: "paid" }, "canceled", NOW, "voided")
    expect(patch).toEqual({ state: "closed", next_check_at: null, note: "voided" })
  })

  it("stops watching an attempt still pending after 24 hours", () => {
    const patch = watchAfterRead(
      { checks: 30, created_at: new Date(NOW.getTime() - MAX_ATTEMPT_AGE_MS - 1), state: "open" },
      "pending",
      NOW,
    )
    expect(patch).toMatchObject({ state: "closed", next_check_at: null })
  })

  it("watches a payment link's attempt until the link expires, days after a hosted page's day", () => {
    const created = new Date(NOW.getTime() - 3 * 86_400_000)
    const linkEnds = new Date(NOW.getTime() + 4 * 86_400_000)
    const watched = watchAfterRead(
      { checks: 30, created_at: created, state: "open" },
      "pending",
      NOW,
      undefined,
      linkEnds,
    )
    expect(watched).toEqual({ checks: 31, next_check_at: new Date(NOW.getTime() + 60 * 60_000) })
    const after = new Date(linkEnds.getTime() + 1)
    expect(
      watchAfterRead({ checks: 31, created_at: created, state: "open" }, "pending", after, undefined, linkEnds),
    ).toEqual({
      state: "closed",
      next_check_at: null,
      note: "Never paid; its payment link expired.",
    })
  })
})

describe("watchPaid", () => {
  it("reads a paid attempt after 1, 2, 4, 8 and 16 hours, then daily, and stops after about a month", () => {
    let at = NOW
    let attempt = { checks: 0 }
    const pauses: number[] = []
    for (;;) {
      const patch = watchPaid(attempt, at)
      if (!patch.next_check_at) break
      pauses.push((patch.next_check_at.getTime() - at.getTime()) / 3_600_000)
      at = patch.next_check_at
      attempt = { checks: patch.checks as number }
    }
    expect(pauses.slice(0, 7)).toEqual([2, 4, 8, 16, 24, 24, 24])
    expect(pauses).toHaveLength(PAID_CHECKS - 1)
    // The first read comes an hour after the payment (paidWatch); the last about a month later.
    const days = (at.getTime() - NOW.getTime() + 3_600_000) / 86_400_000
    expect(days).toBeGreaterThan(29)
    expect(days).toBeLessThan(33)
  })
})

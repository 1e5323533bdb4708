import { MAX_ATTEMPT_AGE_MS, pauseAfter, watchAfterRead } from "../attempt-watch"

const NOW = new Date("2026-11-24T12:00:00Z")

describe("watchAfterRead", () => {
  it("pauses 1, 2, 4 ... minutes between reads of a pending attempt, at most an hour", () => {
    expect([0, 1, 2, 3, 5, 6, 7, 30].map((checks) => pauseAfter(checks) / 60_000)).toEqual([1, 2, 4, 8, 32, 60, 60, 60])
  })

  it("schedules the next read of a pending attempt and counts the read", () => {
    const patch = watchAfterRead({ checks: 2, created_at: new Date(NOW.getTime() - 60_000) }, "pending", NOW)
    expect(patch).toEqual({ checks: 3, next_check_at: new Date(NOW.getTime() + 4 * 60_000) })
  })

  it.each([
    ["authorized", { state: "paid", next_check_at: null }],
    ["captured", { state: "paid", next_check_at: null }],
    ["error", { state: "closed", next_check_at: null, note: "declined" }],
    ["canceled", { state: "closed", next_check_at: null, note: "declined" }],
  ] as const)("stops watching an attempt that is %s", (status, expected) => {
    expect(watchAfterRead({ checks: 0, created_at: NOW }, status, NOW, "declined")).toEqual(expected)
  })

  it("stops watching an attempt still pending after 24 hours", () => {
    const patch = watchAfterRead(
      { checks: 30, created_at: new Date(NOW.getTime() - MAX_ATTEMPT_AGE_MS - 1) },
      "pending",
      NOW,
    )
    expect(patch).toMatchObject({ state: "closed", next_check_at: null })
  })

  it("watches a payment link's attempt until the link expires, days after a hosted page's day", () => {
    const created = new Date(NOW.getTime() - 3 * 86_400_000)
    const linkEnds = new Date(NOW.getTime() + 4 * 86_400_000)
    const watched = watchAfterRead({ checks: 30, created_at: created }, "pending", NOW, undefined, linkEnds)
    expect(watched).toEqual({ checks: 31, next_check_at: new Date(NOW.getTime() + 60 * 60_000) })
    const after = new Date(linkEnds.getTime() + 1)
    expect(watchAfterRead({ checks: 31, created_at: created }, "pending", after, undefined, linkEnds)).toEqual({
      state: "closed",
      next_check_at: null,
      note: "Never paid; its payment link expired.",
    })
  })
})

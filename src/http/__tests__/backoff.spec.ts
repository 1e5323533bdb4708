import { backoffDelayMs } from "../backoff"

describe("backoffDelayMs (full jitter)", () => {
  const options = { baseDelayMs: 100, maxDelayMs: 2000 }

  it.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [5, 1600],
    [6, 2000],
    [20, 2000],
  ])("retry %i waits below a ceiling of %i ms", (retry, ceiling) => {
    expect(backoffDelayMs(retry, { ...options, random: () => 0 })).toBe(0)
    expect(backoffDelayMs(retry, { ...options, random: () => 0.5 })).toBe(ceiling / 2)
    expect(backoffDelayMs(retry, { ...options, random: () => 0.999999 })).toBe(ceiling - 1)
  })

  it("spreads delays over the whole range with the default random source", () => {
    const delays = Array.from({ length: 500 }, () => backoffDelayMs(3, options))
    expect(Math.min(...delays)).toBeLessThan(100)
    expect(Math.max(...delays)).toBeGreaterThan(300)
    expect(Math.max(...delays)).toBeLessThan(400)
  })
})

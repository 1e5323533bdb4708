import { MAX_ORDER_ID_LENGTH, newOrderId, normalizeOrderIdPrefix } from "../order-id"
import { OrderIdSchema } from "../schemas"

const COUNT = 50_000
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

describe("newOrderId", () => {
  it.each(["", "A", "eu", "ST01", "9z9Z"])("with prefix %p: 18 letters and digits, unique over many ids", (prefix) => {
    // Ten ids a millisecond, the rate the collision reasoning in order-id.ts takes: at full
    // speed an idle machine makes thousands a millisecond, and with a 4-character prefix
    // (6 random characters) a duplicate among them turned up in about one run in twenty.
    const start = Date.UTC(2030, 0, 1)
    const ids = Array.from({ length: COUNT }, (_, index) => newOrderId(prefix, start + Math.floor(index / 10)))
    // One assertion over all ids: 200,000 expect() calls would take most of a minute.
    const malformed = ids.filter(
      (id) =>
        id.length !== MAX_ORDER_ID_LENGTH ||
        !/^[A-Z0-9]{18}$/.test(id) ||
        !id.startsWith(prefix.toUpperCase()) ||
        !OrderIdSchema.safeParse(id).success,
    )
    expect(malformed).toEqual([])
    expect(new Set(ids).size).toBe(COUNT)
  })

  it("without a prefix stays unique when every id is made in the same millisecond", () => {
    // 10 random characters: the chance of any collision among 50,000 ids is about 3e-7.
    const now = Date.UTC(2030, 0, 1)
    const ids = Array.from({ length: COUNT }, () => newOrderId("", now))
    expect(new Set(ids).size).toBe(COUNT)
  })

  it("draws every random position uniformly from all 36 characters", () => {
    // With a 4-character prefix 6 random characters remain; a biased or constant position
    // would shrink the space the collision reasoning relies on.
    const now = Date.UTC(2030, 0, 1)
    const ids = Array.from({ length: 20_000 }, () => newOrderId("ST01", now))
    expect(new Set(ids.map((id) => id.slice(0, 12))).size).toBe(1)
    for (let position = 12; position < MAX_ORDER_ID_LENGTH; position++) {
      const counts = new Map<string, number>()
      for (const id of ids) counts.set(id[position], (counts.get(id[position]) ?? 0) + 1)
      expect([...counts.keys()].sort().join("")).toBe(ALPHABET)
      // Expected 556 each; a uniform draw stays well inside ±30 %.
      for (const count of counts.values()) {
        expect(count).toBeGreaterThan(390)
        expect(count).toBeLessThan(720)
      }
    }
  })

  it("keeps stores with different same-length prefixes apart in the same millisecond", () => {
    const now = Date.UTC(2030, 0, 1)
    const storeA = new Set(Array.from({ length: 1_000 }, () => newOrderId("STA1", now)))
    const storeB = Array.from({ length: 1_000 }, () => newOrderId("STB1", now))
    expect(storeB.some((id) => storeA.has(id))).toBe(false)
    expect([...storeA][0].slice(4, 12)).toBe(storeB[0].slice(4, 12))
  })

  it("puts the time after the prefix, so ids sort by creation", () => {
    const earlier = newOrderId("S", Date.UTC(2030, 0, 1))
    const later = newOrderId("S", Date.UTC(2030, 0, 1, 0, 0, 1))
    expect(earlier.slice(0, 9) < later.slice(0, 9)).toBe(true)
  })

  it.each(["ABCDE", "a-b", "é", " "])("refuses the prefix %p", (prefix) => {
    expect(() => newOrderId(prefix)).toThrow(/^orderIdPrefix: /)
  })

  it("normalizes a prefix to upper case", () => {
    expect(normalizeOrderIdPrefix("ab1")).toBe("AB1")
    expect(normalizeOrderIdPrefix()).toBe("")
  })
})

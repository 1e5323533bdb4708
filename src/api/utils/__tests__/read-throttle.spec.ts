/** One read per key and interval, joined by concurrent callers, in bounded memory. */
import { ReadThrottle } from "../read-throttle"

function clock(start = 1_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe("ReadThrottle", () => {
  it("runs one read for concurrent callers of a key, none within the interval, another after it", async () => {
    const time = clock()
    const throttle = new ReadThrottle({ intervalMs: 3_000, maxKeys: 10, now: time.now })
    let reads = 0
    let release!: () => void
    const read = () => {
      reads += 1
      return new Promise<void>((resolve) => {
        release = resolve
      })
    }
    const first = throttle.run("a", read)
    const joined = Promise.all([throttle.run("a", read), throttle.run("a", read)])
    release()
    expect(await first).toBe("read")
    expect(await joined).toEqual(["joined", "joined"])
    const countedRead = async () => {
      reads += 1
    }
    time.advance(2_999)
    expect(await throttle.run("a", countedRead)).toBe("skipped")
    time.advance(1)
    expect(await throttle.run("a", countedRead)).toBe("read")
    expect(reads).toBe(2)
  })

  it("keeps keys apart", async () => {
    const throttle = new ReadThrottle({ intervalMs: 3_000, maxKeys: 10, now: clock().now })
    const seen: string[] = []
    await throttle.run("a", async () => void seen.push("a"))
    await throttle.run("b", async () => void seen.push("b"))
    expect(seen).toEqual(["a", "b"])
  })

  it("gives a failed read's error to its caller only and counts it as a read", async () => {
    const time = clock()
    const throttle = new ReadThrottle({ intervalMs: 3_000, maxKeys: 10, now: time.now })
    let fail!: (error: Error) => void
    const first = throttle.run(
      "a",
      () =>
        new Promise<void>((_resolve, reject) => {
          fail = reject
        }),
    )
    const joined = throttle.run("a", async () => undefined)
    fail(new Error("gateway down"))
    await expect(first).rejects.toThrow("gateway down")
    await expect(joined).resolves.toBe("joined")
    expect(await throttle.run("a", async () => undefined)).toBe("skipped")
  })

  it("answers the last read's value, or its error, to every caller of a key until the interval is over", async () => {
    const time = clock()
    const throttle = new ReadThrottle<string>({ intervalMs: 3_000, maxKeys: 10, now: time.now })
    let reads = 0
    const read = async () => `read ${++reads}`
    await expect(Promise.all([throttle.latest("a", read), throttle.latest("a", read)])).resolves.toEqual([
      "read 1",
      "read 1",
    ])
    time.advance(2_999)
    await expect(throttle.latest("a", read)).resolves.toBe("read 1")
    await expect(throttle.latest("b", read)).resolves.toBe("read 2")
    time.advance(1)
    await expect(throttle.latest("a", read)).resolves.toBe("read 3")
    const failing = () => Promise.reject(new Error("gateway down"))
    time.advance(3_000)
    await expect(throttle.latest("a", failing)).rejects.toThrow("gateway down")
    await expect(throttle.latest("a", read)).rejects.toThrow("gateway down")
    expect(reads).toBe(3)
  })

  it("remembers at most maxKeys keys, forgetting the least recently used", async () => {
    const throttle = new ReadThrottle({ intervalMs: 3_000, maxKeys: 2, now: clock().now })
    const noop = async () => undefined
    await throttle.run("a", noop)
    await throttle.run("b", noop)
    expect(await throttle.run("a", noop)).toBe("skipped") // a is now the most recent
    await throttle.run("c", noop) // forgets b
    expect(await throttle.run("a", noop)).toBe("skipped")
    expect(await throttle.run("b", noop)).toBe("read")
  })
})

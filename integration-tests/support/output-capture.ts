/**
 * Records everything a suite writes while it runs, so the secrets guard can search it and a
 * suite can check what the plugin logged. Two kinds of writers exist in a jest test file:
 * - process.stdout / process.stderr: where Medusa's logger (winston's console transport, via
 *   `console._stdout`) ends up when jest's console writes straight through;
 * - the jest console's own streams (`console._stdout`, `console._stderr`): a buffering
 *   console's fake streams, and what console.log of any library goes through.
 * Each distinct stream object is wrapped once. Chunks are recorded with the stream and the
 * test running at the time, so a finding can say where it came from.
 */

export interface CapturedChunk {
  stream: "stdout" | "stderr"
  /** The full name of the running test, or undefined in suite-level hooks. */
  test: string | undefined
  text: string
}

export interface OutputCapture {
  /** Every chunk captured so far, oldest first. */
  chunks(): readonly CapturedChunk[]
  /** All captured text written since `from` (a previous `chunks().length`), in order. */
  textSince(from: number): string
  /** Puts the original write methods back. */
  stop(): void
}

type Stream = { write: (...args: any[]) => boolean }

export interface CaptureOptions {
  /** Return false to keep a chunk out of the terminal; it is recorded all the same. */
  passThrough?: (text: string) => boolean
}

function chunkText(chunk: unknown, encoding: unknown): string {
  if (typeof chunk === "string") return chunk
  if (chunk instanceof Uint8Array)
    return Buffer.from(chunk).toString(typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
  return String(chunk)
}

function currentTestName(): string | undefined {
  try {
    return expect.getState().currentTestName
  } catch {
    return undefined
  }
}

export function captureOutput(options: CaptureOptions = {}): OutputCapture {
  const recorded: CapturedChunk[] = []
  const restorers: Array<() => void> = []
  const wrapped = new Set<Stream>()
  const jestConsole = console as unknown as { _stdout?: Stream; _stderr?: Stream }
  const targets: Array<[CapturedChunk["stream"], Stream | undefined]> = [
    ["stdout", process.stdout],
    ["stderr", process.stderr],
    ["stdout", jestConsole._stdout],
    ["stderr", jestConsole._stderr],
  ]
  for (const [name, stream] of targets) {
    if (!stream || wrapped.has(stream)) continue
    wrapped.add(stream)
    const original = stream.write
    stream.write = function write(this: unknown, chunk: unknown, ...rest: unknown[]) {
      const text = chunkText(chunk, rest[0])
      recorded.push({ stream: name, test: currentTestName(), text })
      if (options.passThrough && !options.passThrough(text)) {
        // Honour the write's callback, as a real write would.
        const callback = rest.find((argument) => typeof argument === "function") as (() => void) | undefined
        callback?.()
        return true
      }
      return original.call(this, chunk, ...rest)
    }
    restorers.push(() => {
      stream.write = original
    })
  }
  return {
    chunks: () => recorded,
    textSince: (from) =>
      recorded
        .slice(from)
        .map((chunk) => chunk.text)
        .join(""),
    stop: () => {
      for (const restore of restorers.reverse()) restore()
    },
  }
}

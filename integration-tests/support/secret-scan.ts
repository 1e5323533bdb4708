/**
 * Searches captured output for secrets and describes each finding without the secret: its
 * kind, the stream and test it was written in, the line of the suite's output, and the text
 * before it on that line with every known secret masked.
 */

import type { Secret, SecretPattern } from "./known-secrets"
import type { CapturedChunk } from "./output-capture"

export interface Leak {
  kind: string
  stream: CapturedChunk["stream"]
  test: string | undefined
  /** 1-based line of the suite's captured output. */
  line: number
  /** What preceded the secret on its line, secrets masked, at most CONTEXT_CHARS long. */
  before: string
}

const CONTEXT_CHARS = 80

function maskSecrets(text: string, secrets: readonly Secret[], patterns: readonly SecretPattern[]): string {
  let masked = text
  for (const secret of secrets) masked = masked.split(secret.value).join(`<${secret.kind}>`)
  for (const { kind, pattern } of patterns)
    masked = masked.replace(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`), `<${kind}>`)
  return masked
}

/** Where the secret's value (or pattern) first occurs in `text`, or -1. */
function firstIndex(text: string, target: Secret | SecretPattern): number {
  if ("value" in target) return text.indexOf(target.value)
  return text.search(target.pattern)
}

/** The first occurrence of each kind of secret, earliest first. */
export function findLeaks(
  chunks: readonly CapturedChunk[],
  allSecrets: readonly Secret[],
  patterns: readonly SecretPattern[],
): Leak[] {
  // An empty value (an option left unset) would "occur" everywhere.
  const secrets = allSecrets.filter((secret) => secret.value !== "")
  const text = chunks.map((chunk) => chunk.text).join("")
  const starts: number[] = []
  let offset = 0
  for (const chunk of chunks) {
    starts.push(offset)
    offset += chunk.text.length
  }
  const earliest = new Map<string, number>()
  for (const target of [...secrets, ...patterns]) {
    const index = firstIndex(text, target)
    if (index >= 0 && index < (earliest.get(target.kind) ?? Number.POSITIVE_INFINITY)) earliest.set(target.kind, index)
  }
  return [...earliest.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([kind, index]) => {
      let chunkIndex = starts.length - 1
      while (starts[chunkIndex] > index) chunkIndex--
      const lineStart = text.lastIndexOf("\n", index - 1) + 1
      const lineEnd = text.indexOf("\n", index)
      const line = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd)
      const maskedBefore = maskSecrets(line, secrets, patterns).split(`<${kind}>`)[0]
      return {
        kind,
        stream: chunks[chunkIndex].stream,
        test: chunks[chunkIndex].test,
        line: text.slice(0, lineStart).split("\n").length,
        before: maskedBefore.slice(-CONTEXT_CHARS),
      }
    })
}

export function describeLeak(leak: Leak): string {
  const during = leak.test ? `during "${leak.test}"` : "in a suite-level hook"
  return `${leak.kind} written to ${leak.stream} ${during}, line ${leak.line} of the captured output, after: ${JSON.stringify(leak.before)}`
}

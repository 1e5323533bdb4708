/**
 * Makes request and answer data safe to log. Three nets, because any one alone leaks:
 * - by key name, for secrets that look like anything (API keys, tokens, CVVs, expiry dates);
 * - by shape, for card numbers that turn up under a key nobody expected (a description,
 *   an error text echoing the request, a customField), however they are spaced or written;
 * - by text, for secrets written out inside a string: header lines (`Authorization: Bearer …`),
 *   `key=value` pairs and URL query strings, JSON kept as text.
 *
 * Nothing here throws: a value that cannot be read becomes a placeholder, so logging can never
 * break the payment call it describes.
 */
import { passesLuhn } from "./luhn"

export const REDACTED = "[REDACTED]"

const CIRCULAR = "[Circular]"
const TOO_DEEP = "[Too deep]"
const UNREADABLE = "[Unreadable]"
const FUNCTION = "[Function]"

/** Deeper than this, a value is replaced by a placeholder rather than walked. */
const MAX_DEPTH = 32

/**
 * Compared after `normalizeKey`: lower case, without `-`, `_`, `.` or spaces, so `X-API-KEY`,
 * `x_api_key`, `apiKey` and `API-Key` are all caught.
 */
const SECRET_KEYS = new Set([
  "xapikey",
  "apikey",
  "apisecret",
  "authorization",
  "proxyauthorization",
  "cookie",
  "setcookie",
  "consumersecret",
  "clientsecret",
  "secret",
  "password",
  "passwd",
  "passphrase",
  "privatekey",
  "pan",
  "cvv",
  "cvv2",
  "cvc",
  "cvc2",
  "cvn",
  "securitycode",
  "expiry",
  "expirydate",
  "expirationdate",
  "expirymonth",
  "expiryyear",
  "token",
  "securitytoken",
  // A saved card's contract pays with it again (with the CVV on the hosted page): kept off logs too.
  "contractid",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "authtoken",
  "sessiontoken",
  "bearertoken",
])

/** In text, these run to the end of the line (`Authorization: Bearer abc`, `Cookie: a=1; b=2`). */
const LINE_KEYS = new Set(["authorization", "proxyauthorization", "cookie", "setcookie"])

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, "")
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normalizeKey(key))
}

// ---------------------------------------------------------------------------------------------
// Card numbers

/** A digit or separator of `text` at [start, end), with the ASCII digit it stands for. */
type Unit = { start: number; end: number; kind: "digit" | "separator" | "other"; digit: string }

/**
 * What may stand between the digits of a card number: spaces of every width (NBSP, thin,
 * figure, ideographic), dots, dashes and hyphens (ASCII, Unicode, full-width), slashes, and the
 * invisible characters (zero-width space and joiners, soft hyphen, BOM).
 */
const SEPARATOR =
  /^[\s\u00a0\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff\u00ad.\-\u2010-\u2015\u2212\ufe58\ufe63\uff0d\uff0e\u30fb\uff65]$/u
const DECIMAL_DIGIT = /^\p{Nd}$/u

/** At most this many separators between two digits of one card number ("4999 - 3402"). */
const MAX_GAP = 3

/** The ASCII digit a Unicode decimal digit stands for (full-width, Arabic-Indic, ...). */
function asciiDigit(char: string): string | undefined {
  if (char >= "0" && char <= "9") return char
  if (!DECIMAL_DIGIT.test(char)) return undefined
  const folded = char.normalize("NFKC")
  if (folded.length === 1 && folded >= "0" && folded <= "9") return folded
  // Unicode encodes every other set of decimal digits as a run of ten, zero first.
  const codePoint = char.codePointAt(0) ?? 0
  let value = 0
  while (value < 9 && DECIMAL_DIGIT.test(String.fromCodePoint(codePoint - value - 1))) value++
  return String(value)
}

/** Splits `text` into characters, reading `\uXXXX` escapes (JSON kept as text) as what they encode. */
function* units(text: string): Generator<Unit> {
  let index = 0
  while (index < text.length) {
    let char: string
    let end: number
    const escaped = text.charCodeAt(index) === 0x5c ? /^\\u([0-9a-fA-F]{4})/.exec(text.slice(index, index + 6)) : null
    if (escaped) {
      char = String.fromCharCode(Number.parseInt(escaped[1] ?? "0", 16))
      end = index + 6
    } else {
      const codePoint = text.codePointAt(index) ?? 0
      char = String.fromCodePoint(codePoint)
      end = index + char.length
    }
    const digit = asciiDigit(char)
    if (digit !== undefined) yield { start: index, end, kind: "digit", digit }
    else yield { start: index, end, kind: SEPARATOR.test(char) ? "separator" : "other", digit: "" }
    index = end
  }
}

/** Digits written next to each other, with where they start and end in the text. */
type Group = { digits: string; start: number; end: number }

/**
 * Runs of digit groups joined by short runs of separators. A card number is a run of whole
 * groups: it never starts or ends in the middle of digits written together.
 */
function digitChains(text: string): Group[][] {
  const chains: Group[][] = []
  let chain: Group[] = []
  let group: Group | undefined
  let gap = 0
  const closeChain = () => {
    if (group) chain.push(group)
    if (chain.length) chains.push(chain)
    chain = []
    group = undefined
    gap = 0
  }
  for (const unit of units(text)) {
    if (unit.kind === "digit") {
      if (group && gap === 0) {
        group.digits += unit.digit
        group.end = unit.end
      } else {
        if (group) chain.push(group)
        group = { digits: unit.digit, start: unit.start, end: unit.end }
      }
      gap = 0
    } else if (unit.kind === "separator" && group && gap < MAX_GAP) {
      gap++
    } else {
      closeChain()
    }
  }
  closeChain()
  return chains
}

/** Spans of `text` holding a card number, with its last four digits. */
function panSpans(text: string): Array<{ start: number; end: number; last4: string }> {
  const spans: Array<{ start: number; end: number; last4: string }> = []
  for (const groups of digitChains(text)) {
    let first = 0
    while (first < groups.length) {
      let found = -1
      let digits = ""
      // The longest run of whole groups of at most 19 digits, then shorter ones down to 13.
      const candidates: string[] = []
      for (let last = first; last < groups.length; last++) {
        digits += groups[last]?.digits ?? ""
        if (digits.length > 19) break
        candidates.push(digits)
      }
      for (let last = candidates.length - 1; last >= 0; last--) {
        const candidate = candidates[last] ?? ""
        if (candidate.length < 13) break
        if (passesLuhn(candidate)) {
          found = first + last
          spans.push({ start: groups[first]?.start ?? 0, end: groups[found]?.end ?? 0, last4: candidate.slice(-4) })
          break
        }
      }
      first = found >= 0 ? found + 1 : first + 1
    }
  }
  return spans
}

/** Cheap test first: most log text holds no run of 13 digits at all. */
function mayHoldPan(text: string): boolean {
  let digits = 0
  for (const char of text) {
    if ((char >= "0" && char <= "9") || (char > "\u007f" && DECIMAL_DIGIT.test(char))) {
      if (++digits >= 13) return true
    }
  }
  // Escaped digits (\uff11) do not count above; look for escapes at all.
  return text.includes("\\u")
}

/**
 * Replaces every card number inside `text` with its last four digits behind asterisks. Digits
 * may be full-width or of another script, and grouped by spaces of any kind (NBSP, several in
 * a row), dots or dashes; 13 to 19 digits not glued to other digits, confirmed with the Luhn
 * check so order ids and amounts that merely are long numbers stay readable.
 */
export function maskPans(text: string): string {
  if (!mayHoldPan(text)) return text
  const spans = panSpans(text)
  if (spans.length === 0) return text
  let masked = ""
  let cursor = 0
  for (const span of spans) {
    masked += `${text.slice(cursor, span.start)}[PAN ****${span.last4}]`
    cursor = span.end
  }
  return masked + text.slice(cursor)
}

// ---------------------------------------------------------------------------------------------
// Secrets written out in text

const IDENT = "[A-Za-z][A-Za-z0-9_.-]*"
/** A value already masked is left as it is. */
const NOT_MASKED = "(?!\\[(?:REDACTED|PAN ))"

/** `"cvv": "123"`, `"cvv":123`, and the single-quoted form. */
const QUOTED_PAIR = new RegExp(
  `(["'])(${IDENT})\\1(\\s*:\\s*)${NOT_MASKED}("(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*'|[^\\s,}\\]]+)`,
  "g",
)
/** `\"cvv\":\"123\"`: JSON inside a JSON string (at any depth of escaping), seen as text. */
const ESCAPED_PAIR = new RegExp(
  `(\\\\+)"(${IDENT})\\1"(\\s*:\\s*)${NOT_MASKED}(\\1"(?:(?!\\1")[^])*\\1"|[^\\s,}\\]\\\\]+)`,
  "g",
)
/** `X-API-KEY: abc`, `Authorization: Bearer abc`, `?token=abc&api_key=def`, `cvv=123`: the name and separator. */
const BARE_KEY = new RegExp(`(?<![A-Za-z0-9_.-])(${IDENT})([ \\t]*[:=][ \\t]*)`, "g")
/** A bearer credential wherever it stands. */
const BEARER = /\b(Bearer)(\s+)(?!\[REDACTED\])[A-Za-z0-9._~+/=-]+/gi

/** The value of a bare pair: one word (with an auth scheme before it), or the rest of a header line. */
function bareValueEnd(key: string, separator: string, rest: string): number {
  if (LINE_KEYS.has(key) && separator.includes(":")) return rest.length
  const scheme = /^(?:(?:bearer|basic|digest|token)\s+)?/i.exec(rest)?.[0].length ?? 0
  const word = /^("[^"]*"|'[^']*'|[^\s&#;,"'}\])]*)/.exec(rest.slice(scheme))?.[0].length ?? 0
  return scheme + word
}

/** Secrets written as text: key/value pairs under a secret name, header lines, URL queries, bearer tokens. */
function maskTextSecrets(text: string): string {
  let masked = text
  if (/bearer/i.test(masked)) masked = masked.replace(BEARER, (_match, scheme, space) => `${scheme}${space}${REDACTED}`)
  masked = masked.replace(QUOTED_PAIR, (match, quote: string, key: string, separator: string, value: string) => {
    if (!isSecretKey(key)) return match
    const wrap = value.startsWith('"') || value.startsWith("'") ? value[0] : ""
    return `${quote}${key}${quote}${separator}${wrap}${REDACTED}${wrap}`
  })
  if (masked.includes('\\"')) {
    masked = masked.replace(ESCAPED_PAIR, (match, slashes: string, key: string, separator: string, value: string) => {
      if (!isSecretKey(key)) return match
      const wrap = value.startsWith(`${slashes}"`) ? `${slashes}"` : ""
      return `${slashes}"${key}${slashes}"${separator}${wrap}${REDACTED}${wrap}`
    })
  }
  return maskBarePairs(masked)
}

/** The secret name a bare key stands for (`options.apiKey` is `apikey`), or undefined. */
function secretName(key: string): string | undefined {
  const whole = normalizeKey(key)
  if (SECRET_KEYS.has(whole)) return whole
  const last = normalizeKey(key.slice(key.lastIndexOf(".") + 1))
  return SECRET_KEYS.has(last) ? last : undefined
}

function maskBarePairs(text: string): string {
  let masked = ""
  let cursor = 0
  const pattern = new RegExp(BARE_KEY)
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [whole, key = "", separator = ""] = match
    const name = secretName(key)
    const valueStart = match.index + whole.length
    if (name === undefined) continue
    const rest = text.slice(valueStart)
    if (rest.startsWith(REDACTED) || rest.startsWith("[PAN ")) continue
    const end = bareValueEnd(name, separator, rest.split(/[\r\n]/, 1)[0] ?? "")
    if (end === 0) continue
    masked += `${text.slice(cursor, valueStart)}${REDACTED}`
    cursor = valueStart + end
    pattern.lastIndex = cursor
  }
  return masked + text.slice(cursor)
}

/** Card numbers and written-out secrets masked in a piece of text. */
export function redactText(text: string): string {
  try {
    return maskTextSecrets(maskPans(text))
  } catch {
    return UNREADABLE
  }
}

// ---------------------------------------------------------------------------------------------
// Values

/** A string that holds a JSON object or array is redacted as that JSON, then written back. */
function redactJsonText(text: string, depth: number, ancestors: object[]): string | undefined {
  const trimmed = text.trim()
  const object = trimmed.startsWith("{") && trimmed.endsWith("}")
  const array = trimmed.startsWith("[") && trimmed.endsWith("]")
  // A JSON string literal: JSON written into a string once more.
  const literal = trimmed.length > 1 && trimmed.startsWith('"') && trimmed.endsWith('"')
  if (!object && !array && !literal) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(trimmed)
  } catch {
    return undefined
  }
  return JSON.stringify(walk(parsed, depth + 1, ancestors))
}

function readMember(value: object, key: string): { value: unknown } | undefined {
  try {
    return { value: (value as Record<string, unknown>)[key] }
  } catch {
    return undefined
  }
}

function walkObject(value: object, depth: number, ancestors: object[]): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "[Invalid Date]" : value.toISOString()
  if (value instanceof URL) return redactText(value.href)
  if (value instanceof RegExp) return redactText(String(value))
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[Binary ${value.byteLength} bytes]`
  if (Array.isArray(value)) {
    const copy: unknown[] = []
    for (let index = 0; index < value.length; index++) {
      const member = readMember(value, String(index))
      copy.push(member ? walk(member.value, depth + 1, ancestors) : UNREADABLE)
    }
    return copy
  }
  if (value instanceof Set) return [...value].map((member) => walk(member, depth + 1, ancestors))
  const copy: Record<string, unknown> = {}
  const assign = (key: string, member: { value: unknown } | undefined) => {
    copy[key] = isSecretKey(key) ? REDACTED : member ? walk(member.value, depth + 1, ancestors) : UNREADABLE
  }
  if (value instanceof Map) {
    for (const [key, member] of value)
      assign(typeof key === "string" ? key : String(walk(key, depth + 1, ancestors)), { value: member })
    return copy
  }
  if (value instanceof Error) {
    assign("name", readMember(value, "name"))
    assign("message", readMember(value, "message"))
  }
  for (const key of Object.keys(value)) assign(key, readMember(value, key))
  return copy
}

function walk(value: unknown, depth: number, ancestors: object[]): unknown {
  switch (typeof value) {
    case "string":
      return redactJsonText(value, depth, ancestors) ?? redactText(value)
    case "number": {
      // A card number sent as a JSON number.
      const text = String(value)
      const masked = maskPans(text)
      return masked === text ? value : masked
    }
    case "bigint":
      return maskPans(value.toString())
    case "symbol":
      return redactText(value.toString())
    case "function":
      return FUNCTION
    case "object": {
      if (value === null) return null
      if (depth > MAX_DEPTH) return TOO_DEEP
      if (ancestors.includes(value)) return CIRCULAR
      ancestors.push(value)
      try {
        return walkObject(value, depth, ancestors)
      } catch {
        return UNREADABLE
      } finally {
        ancestors.pop()
      }
    }
    default:
      return value
  }
}

/**
 * A deep copy of `value` with secret keys replaced and card numbers and written-out secrets
 * masked; the input is left alone. Never throws: cycles, values too deep, getters that throw,
 * functions, symbols and BigInts come back as placeholders or text.
 */
export function redact(value: unknown): unknown {
  try {
    return walk(value, 0, [])
  } catch {
    return UNREADABLE
  }
}

/**
 * `redact` then JSON, for a log line. The JSON is masked once more so that a card number sent
 * as a JSON number is caught too; a body that is not JSON is masked as text.
 */
export function redactForLog(value: unknown): string {
  try {
    if (value === undefined) return ""
    let parsed = value
    if (typeof value === "string") {
      try {
        parsed = JSON.parse(value)
      } catch {
        return redactText(value)
      }
      // A bare number or string is logged as written: read as a number, a card number loses digits.
      if (parsed === null || typeof parsed !== "object") return redactText(value)
    }
    return maskPans(JSON.stringify(redact(parsed)) ?? String(parsed))
  } catch {
    return UNREADABLE
  }
}

/**
 * Merchant order ids for the gateway: at most 18 letters and digits, new for every payment
 * attempt (the gateway refuses an orderId it has seen, even after a failed payment).
 *
 * Shape: [store prefix, 0-4 chars][time, 8 chars][random, the rest up to 18], upper case
 * base 36, e.g. "EU01" + "M3K9ZQ1A" + "7F2K0X".
 *
 * Why this does not collide, even when several stores share one terminal:
 * - Stores given different prefixes of the same length (give every store sharing a
 *   terminal exactly 4 characters) can never produce the same id: the first 4 characters
 *   differ. (With prefixes of different lengths, "A" and "AB", an id of one could in theory
 *   equal an id of the other made at an unrelated time; hence "the same length".)
 * - Within one prefix (or with none), two ids can only be equal if they are made in the same
 *   millisecond, because the time part is the millisecond in base 36.
 * - Within one millisecond, the random part is at least 6 base-36 characters from the
 *   operating system's CSPRNG: 36^6 ≈ 2.2e9 values. A store making 10 ids in one millisecond
 *   collides with probability about 10² / (2 · 2.2e9) ≈ 2e-8; without a prefix the random
 *   part is 10 characters (3.7e15 values). Bits spent on the time part are not lost: they
 *   separate every millisecond from every other, which random bits alone would only do
 *   probabilistically.
 * - Nothing is kept in memory or in the database, so restarts, several server processes and
 *   clock corrections (the time part repeating) are covered by the random part alone.
 * A collision would not mix up two payments anyway: the gateway refuses an orderId it has
 * seen, and the attempt fails visibly.
 * The time part also makes ids sort by creation, which helps whoever reads the gateway's
 * back office.
 */
import { randomBytes } from "node:crypto"

export const MAX_ORDER_ID_LENGTH = 18
const MAX_ORDER_ID_PREFIX_LENGTH = 4

const TIME_LENGTH = 8
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/** Checks a configured store prefix; returns it in upper case, as it will appear in ids. */
export function normalizeOrderIdPrefix(prefix = ""): string {
  if (!/^[A-Za-z0-9]{0,4}$/.test(prefix)) {
    throw new TypeError(`orderIdPrefix: "${prefix}" must be at most ${MAX_ORDER_ID_PREFIX_LENGTH} letters and digits`)
  }
  return prefix.toUpperCase()
}

/** 252 = 7 · 36: bytes from 252 up are dropped so that every character is equally likely. */
const UNBIASED_BYTE_LIMIT = 252

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one system call per about 400 ids
 * instead of one per id, on the path of every payment started (docs/benchmark.md). The bytes
 * are as random as randomBytes'; none is used twice.
 */
const POOL_SIZE = 4096
let pool = Buffer.alloc(0)
let poolOffset = 0

function randomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE)
    poolOffset = 0
  }
  return pool[poolOffset++]
}

function randomChars(length: number): string {
  let text = ""
  while (text.length < length) {
    const byte = randomByte()
    if (byte < UNBIASED_BYTE_LIMIT) text += ALPHABET[byte % ALPHABET.length]
  }
  return text
}

/**
 * A new order id. `now` is injectable for tests. 8 base-36 characters of milliseconds last
 * until 2059; after that the time part wraps and uniqueness rests on the random part.
 */
export function newOrderId(prefix = "", now: number = Date.now()): string {
  const normalized = normalizeOrderIdPrefix(prefix)
  const time = now.toString(36).toUpperCase().padStart(TIME_LENGTH, "0").slice(-TIME_LENGTH)
  return normalized + time + randomChars(MAX_ORDER_ID_LENGTH - normalized.length - TIME_LENGTH)
}

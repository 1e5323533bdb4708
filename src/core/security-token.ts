/**
 * The gateway signs nothing: a notification is genuine when it carries the securityToken the
 * gateway gave us for that order. Session data is readable by the storefront, so only a
 * SHA-256 of the token is stored there, and the comparison is constant-time.
 */
import { createHash, timingSafeEqual } from "node:crypto"

export function hashSecurityToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex")
}

export function securityTokenMatches(token: unknown, expectedHash: unknown): boolean {
  if (typeof token !== "string" || typeof expectedHash !== "string" || !/^[0-9a-f]{64}$/.test(expectedHash)) {
    return false
  }
  return timingSafeEqual(Buffer.from(hashSecurityToken(token), "hex"), Buffer.from(expectedHash, "hex"))
}

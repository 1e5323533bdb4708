/**
 * Every APM API operation takes `Authorization: Bearer base64(consumerKey:consumerSecret)`.
 * docs/contract/apm.md only states it for initialize; the simulator requires it on
 * initializeWithIdempotency and the status read too, because an unauthenticated status
 * read would leak other merchants' transactions and a client that sends the header
 * everywhere works against either reading of the spec.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { type Fault, fault } from "./faults"

export interface Credentials {
  consumerKey: string
  consumerSecret: string
}

/** The fault to answer with 401, or undefined when the header carries these credentials. */
export function authorizationFault(header: string | undefined, credentials: Credentials): Fault | undefined {
  if (!header) return fault("The Authorization header is missing", { header: "Authorization" })
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1]
  if (!token)
    return fault("The Authorization header must be: Bearer <base64 of key:secret>", { header: "Authorization" })
  const expected = Buffer.from(`${credentials.consumerKey}:${credentials.consumerSecret}`, "utf8").toString("base64")
  if (!sameSecret(token, expected)) {
    return fault("The Authorization header does not carry valid consumer credentials", { header: "Authorization" })
  }
  return undefined
}

/** Compares digests so the comparison takes the same time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()
  return timingSafeEqual(digest(given), digest(expected))
}

import { createHash } from "node:crypto"
import { idempotencyUuid } from "../idempotency"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** RFC 4122 section 4.3, written out independently of the code under test. */
function referenceV5(namespace: string, name: string): string {
  const bytes = createHash("sha1")
    .update(Buffer.concat([Buffer.from(namespace.replaceAll("-", ""), "hex"), Buffer.from(name, "utf8")]))
    .digest()
    .subarray(0, 16)
  bytes[6] = 0x50 | (bytes[6] & 0x0f)
  bytes[8] = 0x80 | (bytes[8] & 0x3f)
  const hex = bytes.toString("hex")
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join("-")
}

describe("idempotencyUuid", () => {
  it("is a version 5 UUID of the RFC 4122 variant", () => {
    for (const key of ["capt_1", "ref_01HXYZ", "payses_ü€"]) {
      const uuid = idempotencyUuid(key)
      expect(uuid).toMatch(UUID)
      expect(uuid[14]).toBe("5")
      expect(["8", "9", "a", "b"]).toContain(uuid[19])
    }
  })

  it("is the same for the same key", () => {
    expect(idempotencyUuid("capt_1")).toBe(idempotencyUuid("capt_1"))
  })

  it("differs for different keys", () => {
    const keys = ["capt_1", "capt_2", "Capt_1", "capt_1 ", "ref_1"]
    expect(new Set(keys.map(idempotencyUuid)).size).toBe(keys.length)
  })

  it("matches a v5 UUID computed independently in the plugin's namespace", () => {
    const namespace = "0b9f2a52-5d3b-4c1e-9a57-6e2f8c4d1a30"
    expect(idempotencyUuid("capt_01HZ")).toBe(referenceV5(namespace, "capt_01HZ"))
    expect(idempotencyUuid("refund_ü")).toBe(referenceV5(namespace, "refund_ü"))
  })

  it("is not the v5 UUID of the same name in a standard namespace", () => {
    const dnsNamespace = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
    expect(idempotencyUuid("capt_01HZ")).not.toBe(referenceV5(dnsNamespace, "capt_01HZ"))
  })

  it("checks the reference against the RFC's published vector", () => {
    // Python's uuid.uuid5(uuid.NAMESPACE_DNS, "python.org"), so the helper above is trusted.
    expect(referenceV5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org")).toBe(
      "886313e1-3b8a-5372-9b90-0c9aee199e5d",
    )
  })

  it("refuses an empty key with a message naming it", () => {
    expect(() => idempotencyUuid("")).toThrow("idempotency key: Medusa passed no idempotency key for a write")
  })
})

/**
 * Runs with the container stand-in of ./support/container and the plugin's in-memory ledger.
 * Orphaned captures and refunds take the sync's path (integration suites); the voids the job
 * records itself, and which writes count as orphaned voids, are covered here.
 */
import type { NewWrite, WritePatch } from "../../modules/nexi-ledger/types"
import { recordOrphanedVoids } from "../reconcile-pending-sessions"
import { testContainer } from "./support/container"

async function write(
  ledger: ReturnType<typeof testContainer>["ledger"],
  fields: Partial<NewWrite> & { idempotency_key: string },
  patch: WritePatch,
) {
  await ledger.requestWrite({ kind: "void", gateway_ref: "ORD1", amount_minor: "1000", currency: "EUR", ...fields })
  return ledger.settleWrite(fields.idempotency_key, patch)
}

async function setup({ sessionId = "payses_1" as string | null, canceledAt = null as Date | null } = {}) {
  const test = testContainer()
  await test.ledger.openAttempt({
    provider_identifier: "nexi",
    gateway_ref: "ORD1",
    amount_minor: "1000",
    currency: "EUR",
    session_id: sessionId,
  })
  test.payment.payments.push({ id: "pay_1", payment_session_id: "payses_1", canceled_at: canceledAt })
  return test
}

describe("recordOrphanedVoids", () => {
  it("records nothing when the ref has no orphaned write", async () => {
    const { container, ledger, payment } = await setup()
    await write(ledger, { idempotency_key: "k1" }, { outcome: "refused" })
    await write(ledger, { idempotency_key: "k2" }, { outcome: "executed", claimed_by: "pay_0" })
    await write(ledger, { idempotency_key: "k3", origin: "release" }, { outcome: "executed" })
    await write(ledger, { idempotency_key: "k4", kind: "refund" }, { outcome: "executed" })
    await write(ledger, { idempotency_key: "k5", kind: "cancel_capture" }, { outcome: "executed" })
    await write(ledger, { idempotency_key: "k6" }, { outcome: "unknown" })
    await expect(recordOrphanedVoids(container, ledger, "ORD1")).resolves.toBe(0)
    expect(payment.cancelled).toEqual([])
  })

  it("cancels Medusa's payment and claims an executed, unclaimed void", async () => {
    const { container, ledger, payment } = await setup()
    const orphan = await write(ledger, { idempotency_key: "k1" }, { outcome: "executed" })
    await write(ledger, { idempotency_key: "k2" }, { outcome: "refused" })
    await expect(recordOrphanedVoids(container, ledger, "ORD1")).resolves.toBe(1)
    expect(payment.cancelled).toEqual(["pay_1"])
    expect(ledger.writes.find((row) => row.id === orphan.id)?.claimed_by).toBe("pay_1")
    expect(ledger.writes.find((row) => row.idempotency_key === "k2")?.claimed_by).toBeNull()
  })

  it("does not cancel a payment Medusa already cancelled, but still claims the void", async () => {
    const { container, ledger, payment } = await setup({ canceledAt: new Date() })
    const orphan = await write(ledger, { idempotency_key: "k1" }, { outcome: "executed" })
    await expect(recordOrphanedVoids(container, ledger, "ORD1")).resolves.toBe(1)
    expect(payment.cancelled).toEqual([])
    expect(ledger.writes.find((row) => row.id === orphan.id)?.claimed_by).toBe("pay_1")
  })

  it("records nothing for an attempt without a session", async () => {
    const { container, ledger, payment } = await setup({ sessionId: null })
    await write(ledger, { idempotency_key: "k1" }, { outcome: "executed" })
    await expect(recordOrphanedVoids(container, ledger, "ORD1")).resolves.toBe(0)
    expect(payment.cancelled).toEqual([])
    expect(ledger.writes[0].claimed_by).toBeNull()
  })

  it("records nothing when Medusa holds no payment for the session", async () => {
    const { container, ledger, payment } = await setup({ sessionId: "payses_other" })
    await write(ledger, { idempotency_key: "k1" }, { outcome: "executed" })
    await expect(recordOrphanedVoids(container, ledger, "ORD1")).resolves.toBe(0)
    expect(payment.cancelled).toEqual([])
    expect(ledger.writes[0].claimed_by).toBeNull()
  })

  it("looks only at the writes of the given ref", async () => {
    const { container, ledger, payment } = await setup()
    await write(ledger, { idempotency_key: "k1", gateway_ref: "ORD2" }, { outcome: "executed" })
    await expect(recordOrphanedVoids(container, ledger, "ORD1")).resolves.toBe(0)
    expect(payment.cancelled).toEqual([])
  })
})

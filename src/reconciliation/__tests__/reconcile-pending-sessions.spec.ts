/**
 * Runs with the container stand-in of ./support/container: the plugin's in-memory ledger,
 * and a sync that answers what each test says (the sync has its own suites; the integration
 * suites run the real one).
 */
import type { SyncOutcome } from "../../core/medusa-payments"
import { READS_PER_RUN, reconcilePendingSessions } from "../reconcile-pending-sessions"
import { type SyncCall, testContainer } from "./support/container"

const NOW = new Date("2026-06-01T12:00:00Z")
const DUE = new Date(NOW.getTime() - 60_000)

type Test = ReturnType<typeof testContainer>

async function attempt(
  test: Test,
  gatewayRef: string,
  { checks = 0, due = true, identifier = "nexi", sessionId = "payses_1" } = {},
) {
  await test.ledger.openAttempt({
    provider_identifier: identifier,
    gateway_ref: gatewayRef,
    amount_minor: "1000",
    currency: "EUR",
    session_id: sessionId,
    next_check_at: due ? DUE : null,
  })
  await test.ledger.updateAttempt(gatewayRef, { checks })
}

/** An executed, unclaimed capture: writesToSettle lists it whatever its age. */
async function writeToSettle(test: Test, gatewayRef: string, key = `key_${gatewayRef}`) {
  await test.ledger.requestWrite({
    kind: "capture",
    gateway_ref: gatewayRef,
    idempotency_key: key,
    amount_minor: "1000",
    currency: "EUR",
  })
  await test.ledger.updateWrite(key, { outcome: "executed" })
}

function refOf(call: SyncCall): string | undefined {
  return call.ref
}

/** The job with the test's sync. */
function runJob(test: Test, now: Date) {
  return reconcilePendingSessions(test.container, now, test.syncOf)
}

function withProviders(...ids: string[]): Test {
  const test = testContainer()
  test.payment.providers = ids.map((id) => ({ id }))
  return test
}

describe("reconcilePendingSessions", () => {
  it("reads nothing when the store has no Nexi provider", async () => {
    const test = withProviders("pp_system_default", "pp_stripe_stripe")
    await attempt(test, "ORD1")
    await expect(runJob(test, NOW)).resolves.toEqual({ checked: 0, outcomes: {} })
    expect(test.syncCalls).toEqual([])
  })

  it("reads writes to settle first, then due attempts, the least read first, each ref once", async () => {
    const test = withProviders("pp_nexi_nexi")
    await attempt(test, "ORD_W", { due: false })
    await attempt(test, "ORD_A", { checks: 3 })
    await attempt(test, "ORD_B", { checks: 1 })
    await attempt(test, "ORD_C", { checks: 0 })
    await attempt(test, "ORD_LATER", { due: false })
    await writeToSettle(test, "ORD_W")
    await writeToSettle(test, "ORD_B")
    await runJob(test, NOW)
    expect(test.syncCalls.map(refOf)).toEqual(["ORD_W", "ORD_B", "ORD_C", "ORD_A"])
  })

  it("syncs each ref once, with the store's provider of the attempt", async () => {
    const test = withProviders("pp_nexi_nexi", "pp_nexi-apm-psp-b_nexi", "pp_stripe_stripe")
    await attempt(test, "ORD1")
    await attempt(test, "TX1", { identifier: "nexi-apm-psp-b" })
    await runJob(test, NOW)
    expect(test.syncCalls).toEqual([
      { provider: "pp_nexi_nexi", ref: "ORD1" },
      { provider: "pp_nexi-apm-psp-b_nexi", ref: "TX1" },
    ])
  })

  it("asks the entry that opened the attempt when the store has several entries", async () => {
    const test = withProviders("pp_nexi_nexi-it", "pp_nexi_nexi-de", "pp_nexi-apm-psp-b_nexi-de")
    await attempt(test, "ORD_DE", { identifier: "nexi_nexi-de" })
    await attempt(test, "ORD_IT", { identifier: "nexi_nexi-it" })
    await attempt(test, "TX_DE", { identifier: "nexi-apm-psp-b_nexi-de" })
    await runJob(test, NOW)
    expect(test.syncCalls.map((call) => [call.provider, refOf(call)])).toEqual([
      ["pp_nexi_nexi-de", "ORD_DE"],
      ["pp_nexi_nexi-it", "ORD_IT"],
      ["pp_nexi-apm-psp-b_nexi-de", "TX_DE"],
    ])
  })

  it("skips refs whose provider is not in the store, and writes without an attempt", async () => {
    const test = withProviders("pp_nexi_nexi")
    await attempt(test, "TX1", { identifier: "nexi-apm-psp-b" })
    await attempt(test, "ORD1")
    await writeToSettle(test, "ORD_UNKNOWN")
    const summary = await runJob(test, NOW)
    expect(test.syncCalls.map(refOf)).toEqual(["ORD1"])
    expect(summary.checked).toBe(1)
  })

  it("does not take a provider whose id only starts like the attempt's", async () => {
    // pp_nexi-apm-psp-b_nexi must not read attempts of the card provider "nexi".
    const test = withProviders("pp_nexi-apm-psp-b_nexi")
    await attempt(test, "ORD1", { identifier: "nexi" })
    await expect(runJob(test, NOW)).resolves.toEqual({ checked: 0, outcomes: {} })
  })

  it("syncs each ref and counts the outcomes and failures", async () => {
    const test = withProviders("pp_nexi_nexi")
    for (const ref of ["ORD_PAID", "ORD_FAIL", "ORD_NONE", "ORD_DOWN", "ORD_PAID2"]) await attempt(test, ref)
    const answers: Record<string, SyncOutcome> = {
      ORD_PAID: "completed",
      ORD_PAID2: "completed",
      ORD_FAIL: "marked_error",
      ORD_NONE: "unchanged",
    }
    test.syncAnswer = (call) => {
      const ref = refOf(call)!
      if (ref === "ORD_DOWN") throw new Error("gateway unavailable")
      return answers[ref]
    }
    const summary = await runJob(test, NOW)
    expect(summary).toEqual({ checked: 5, outcomes: { completed: 2, marked_error: 1, unchanged: 1, failed: 1 } })
    expect(test.warnings).toEqual(["nexi: could not reconcile gateway payment ORD_DOWN: gateway unavailable"])
  })

  it("counts a failure to apply the result as failed and goes on", async () => {
    const test = withProviders("pp_nexi_nexi")
    await attempt(test, "ORD1")
    await attempt(test, "ORD2")
    test.syncAnswer = () => {
      throw new Error("db down")
    }
    const summary = await runJob(test, NOW)
    expect(summary).toEqual({ checked: 2, outcomes: { failed: 2 } })
    expect(test.warnings).toHaveLength(2)
  })

  it("stops at READS_PER_RUN / 2 = 50 due attempts", async () => {
    expect(READS_PER_RUN).toBe(100)
    const test = withProviders("pp_nexi_nexi")
    for (let i = 0; i < 60; i++) await attempt(test, `ORD${i}`, { checks: i < 10 ? 5 : 0 })
    const summary = await runJob(test, NOW)
    expect(summary.checked).toBe(50)
    expect(test.syncCalls).toHaveLength(50)
    // The ten read most often are the ones left for the next run.
    expect(test.syncCalls.map(refOf)).not.toContain("ORD0")
    expect(test.syncCalls.map(refOf)).not.toContain("ORD9")
  })

  it("stops at 50 writes to settle", async () => {
    const test = withProviders("pp_nexi_nexi")
    for (let i = 0; i < 60; i++) {
      await attempt(test, `ORD${i}`, { due: false })
      await writeToSettle(test, `ORD${i}`)
    }
    const summary = await runJob(test, NOW)
    expect(summary.checked).toBe(50)
    expect(test.syncCalls.map(refOf)).toEqual(Array.from({ length: 50 }, (_, i) => `ORD${i}`))
  })

  it("stops at 50 refs in all when there are writes to settle and due attempts on other refs", async () => {
    const test = withProviders("pp_nexi_nexi")
    for (let i = 0; i < 60; i++) {
      await attempt(test, `LOST${i}`, { due: false })
      await writeToSettle(test, `LOST${i}`)
      await attempt(test, `DUE${i}`)
    }
    const summary = await runJob(test, NOW)
    expect(summary.checked).toBe(50)
    expect(test.syncCalls).toHaveLength(50)
  })

  /** A paid attempt whose next look is `due`, `checks` looks in. */
  async function paidAttempt(test: Test, gatewayRef: string, due: Date, checks = 0) {
    await attempt(test, gatewayRef, { due: false })
    await test.ledger.updateAttempt(gatewayRef, { state: "paid", checks, next_check_at: due })
  }

  it("looks again at paid orders with the reads the pending ones leave, the longest due first", async () => {
    const test = withProviders("pp_nexi_nexi")
    for (let i = 0; i < 45; i++) await attempt(test, `DUE${i}`)
    await paidAttempt(test, "PAID_LATE", new Date(NOW.getTime() - 60_000))
    await paidAttempt(test, "PAID_EARLY", new Date(NOW.getTime() - 3_600_000))
    await paidAttempt(test, "PAID_NOT_YET", new Date(NOW.getTime() + 60_000))
    for (let i = 0; i < 10; i++) await paidAttempt(test, `PAID_AFTER${i}`, new Date(NOW.getTime() - 30_000))
    await runJob(test, NOW)
    const refs = test.syncCalls.map(refOf)
    expect(refs).toHaveLength(50)
    expect(refs.slice(0, 45).every((ref) => ref?.startsWith("DUE"))).toBe(true)
    expect(refs.slice(45, 47)).toEqual(["PAID_EARLY", "PAID_LATE"])
    expect(refs).not.toContain("PAID_NOT_YET")
  })

  it("sets a paid order's next look before it reads it, so one that cannot be read waits its turn again", async () => {
    const test = withProviders("pp_nexi_nexi")
    await paidAttempt(test, "PAID_DOWN", DUE, 3)
    test.syncAnswer = () => {
      throw new Error("gateway unavailable")
    }
    const summary = await runJob(test, NOW)
    expect(summary).toEqual({ checked: 1, outcomes: { failed: 1 } })
    // The fourth look's pause is 16 hours (attempt-watch.ts).
    expect(await test.ledger.findAttempt("PAID_DOWN")).toMatchObject({
      checks: 4,
      next_check_at: new Date(NOW.getTime() + 16 * 3_600_000),
    })
    test.syncCalls.length = 0
    await runJob(test, new Date(NOW.getTime() + 60_000))
    expect(test.syncCalls).toEqual([])
  })

  it("lets orphaned writes take at most half the run when attempts are due, and reads an unknown write behind them", async () => {
    const test = withProviders("pp_nexi_nexi")
    for (let i = 0; i < 60; i++) {
      await attempt(test, `ORPHAN${i}`, { due: false })
      await writeToSettle(test, `ORPHAN${i}`)
    }
    await attempt(test, "LOST", { due: false })
    await test.ledger.requestWrite({
      kind: "refund",
      gateway_ref: "LOST",
      idempotency_key: "lost",
      amount_minor: "500",
      currency: "EUR",
    })
    await test.ledger.updateWrite("lost", { outcome: "unknown" })
    test.ledger.writes.find((write) => write.idempotency_key === "lost")!.updated_at = new Date(
      NOW.getTime() - 10 * 60_000,
    )
    for (let i = 0; i < 30; i++) await attempt(test, `DUE${i}`)

    await runJob(test, NOW)

    const read = test.syncCalls.map(refOf)
    expect(read).toHaveLength(50)
    expect(read[0]).toBe("LOST")
    expect(read.filter((ref) => ref?.startsWith("DUE"))).toHaveLength(25)
  })

  it("puts an orphan still unclaimed after its read behind the others, so the next run reads the rest", async () => {
    const test = withProviders("pp_nexi_nexi")
    for (let i = 0; i < 60; i++) {
      await attempt(test, `ORPHAN${i}`, { due: false })
      await writeToSettle(test, `ORPHAN${i}`)
    }
    await runJob(test, NOW)
    const first = test.syncCalls.splice(0).map(refOf)
    await runJob(test, NOW)
    const second = test.syncCalls.map(refOf)

    expect(first).toEqual(Array.from({ length: 50 }, (_, i) => `ORPHAN${i}`))
    expect(second.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `ORPHAN${i + 50}`))
    expect(test.ledger.writes[0].message).toMatch(/no Medusa record claims it yet/)
  })

  describe("deleted cards' contract deactivations", () => {
    /** A deactivation whose answer was lost, of a card in `state`. */
    async function lostDeactivation(test: Test, state: "active" | "deleted") {
      const card = await test.ledger.createSavedCard({
        provider_identifier: "nexi_nexi",
        customer_ref: "nxc1",
        contract_id: "nxk1",
        gateway_ref: "ORD_CARD",
        purpose: "verify",
      })
      await test.ledger.updateSavedCard(card.id, { state })
      await test.ledger.requestWrite({
        kind: "contract_deactivation",
        idempotency_key: `${card.id}:deactivation`,
        gateway_ref: "nxk1",
        amount_minor: "0",
        currency: "",
        medusa_ref: card.id,
      })
      await test.ledger.updateWrite(`${card.id}:deactivation`, { outcome: "unknown" })
      return card
    }

    it("never take a payment's place: the payments are read from their own list", async () => {
      const test = withProviders("pp_nexi_nexi")
      await attempt(test, "ORD_A")
      await lostDeactivation(test, "active")
      await runJob(test, NOW)
      expect(test.syncCalls.map(refOf)).toEqual(["ORD_A"])
    })

    it("are not sent for a card still offered (its hiding failed), and say why", async () => {
      const test = withProviders("pp_nexi_nexi")
      const card = await lostDeactivation(test, "active")
      // The job's next run after the lost answer.
      const summary = await runJob(test, new Date(Date.now() + 60_000))
      expect(summary.contractEnds).toBeUndefined()
      expect(test.ledger.writes.find((write) => write.medusa_ref === card.id)).toMatchObject({
        outcome: "refused",
        message: "not sent: the card was not deleted, so it stays usable at the gateway",
      })
    })
  })
})

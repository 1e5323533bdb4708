import { InvalidSnapshotError } from "../index"
import {
  createFinalizedPayment,
  createPayment,
  extendedOf,
  getStatus,
  makeSimulator,
  paymentBody,
  postInitialize,
  refundBody,
  reversalBody,
  transactionOf,
} from "./apm-test-kit"

describe("APM simulator: snapshot, restore and reset", () => {
  async function busySimulator() {
    const simulator = makeSimulator()
    const { sim } = simulator
    const refunded = await createFinalizedPayment(sim)
    await postInitialize(sim, "refund", refundBody(refunded, 300))
    const reversed = await createFinalizedPayment(sim)
    await postInitialize(sim, "reversal", reversalBody(reversed))
    const pending = await createPayment(sim)
    await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    return { ...simulator, refunded, reversed, pending }
  }

  it("is JSON-serialisable and restores to the same observable state", async () => {
    const { sim, refunded, reversed, pending } = await busySimulator()
    const snapshot = JSON.parse(JSON.stringify(sim.snapshot()))
    const copy = makeSimulator()
    copy.sim.restore(snapshot)
    expect(copy.sim.snapshot()).toEqual(snapshot)
    for (const id of [refunded, refunded + 1, reversed, reversed + 1, pending]) {
      expect((await getStatus(copy.sim, id)).body).toEqual((await getStatus(sim, id)).body)
    }
  })

  it("restores links, balances, idempotent answers and the id counter", async () => {
    const { sim, refunded, pending } = await busySimulator()
    const firstIdempotent = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    const copy = makeSimulator()
    copy.sim.restore(JSON.parse(JSON.stringify(sim.snapshot())))

    const overRefund = await postInitialize(copy.sim, "refund", refundBody(refunded, 951))
    expect(overRefund.status).toBe(400)
    expect((await postInitialize(copy.sim, "refund", refundBody(refunded, 950))).status).toBe(202)
    const replay = await postInitialize(copy.sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    expect(replay.body).toEqual(firstIdempotent.body)
    const fresh = transactionOf(await postInitialize(copy.sim, "payment", paymentBody()))
    expect(fresh.transactionId).toBe(Number(transactionOf(firstIdempotent).transactionId) + 2)
    expect(copy.sim.control("approve", String(pending)).status).toBe(200)
  })

  it("does not share state with the snapshot it was given or returned", async () => {
    const { sim, pending } = await busySimulator()
    const snapshot = sim.snapshot() as { transactions: { state: string }[] }
    for (const transaction of snapshot.transactions) transaction.state = "FAILED"
    expect(extendedOf(await getStatus(sim, pending)).state).toBe("PENDING")
  })

  it("restores nothing from undefined, so a state file without APM state starts empty", async () => {
    const { sim } = await busySimulator()
    sim.restore(undefined)
    expect((await getStatus(sim, 7000000001)).status).toBe(404)
  })

  it("refuses a snapshot that is not one, naming the bad member, and keeps its state", async () => {
    const { sim, pending } = await busySimulator()
    const broken = sim.snapshot() as { transactions: { state: string }[] }
    broken.transactions[0].state = "LOST"
    expect(() => sim.restore(broken)).toThrow(InvalidSnapshotError)
    expect(() => sim.restore(broken)).toThrow(/transactions\.0\.state/)
    expect(() => sim.restore({ version: 2 })).toThrow(InvalidSnapshotError)
    expect(extendedOf(await getStatus(sim, pending)).state).toBe("PENDING")
  })

  it("restore does not call onChange; reset empties the state, restarts ids and calls it", async () => {
    const { sim, changes } = await busySimulator()
    const copy = makeSimulator()
    copy.sim.restore(sim.snapshot())
    expect(copy.changes()).toBe(0)
    const before = changes()
    sim.reset()
    expect(changes()).toBe(before + 1)
    expect((await getStatus(sim, 7000000002)).status).toBe(404)
    expect(transactionOf(await postInitialize(sim, "payment", paymentBody())).transactionId).toBe(7000000001)
    const afterReset = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    expect(transactionOf(afterReset).transactionId).toBe(7000000002)
  })
})

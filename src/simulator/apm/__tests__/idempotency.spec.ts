import {
  bearer,
  createFinalizedPayment,
  faultsOf,
  getStatus,
  makeSimulator,
  paymentBody,
  postInitialize,
  refundBody,
  transactionOf,
} from "./apm-test-kit"

describe("APM simulator: initializeWithIdempotency", () => {
  it("answers 400 when the Idempotency-Key header is missing or blank, and creates nothing", async () => {
    const { sim, changes } = makeSimulator()
    for (const key of ["", "   "]) {
      const response = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: key })
      expect(response.status).toBe(400)
      expect(faultsOf(response)).toEqual([
        { explanationText: "The Idempotency-Key header is required", params: { header: "Idempotency-Key" } },
      ])
    }
    expect(changes()).toBe(0)
  })

  it("answers 400 for a key longer than 255 characters", async () => {
    const { sim } = makeSimulator()
    const response = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "k".repeat(256) })
    expect(response.status).toBe(400)
    expect(faultsOf(response)[0]?.params).toEqual({ header: "Idempotency-Key" })
  })

  it("creates a transaction the first time and answers 202 like /initialize", async () => {
    const { sim } = makeSimulator()
    const response = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    expect(response.status).toBe(202)
    expect(transactionOf(response)).toMatchObject({ transactionId: 7000000001, state: "PENDING" })
  })

  it("answers a repeated key with exactly the first answer and creates nothing", async () => {
    const { sim, changes } = makeSimulator()
    const first = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    const changesAfterFirst = changes()
    sim.control("approve", "7000000001")
    const replay = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    expect(replay.status).toBe(first.status)
    // The first answer, not the current state: the payment has since been approved.
    expect(replay.body).toStrictEqual(first.body)
    expect(transactionOf(replay).state).toBe("PENDING")
    expect(changes()).toBe(changesAfterFirst + 1)
    const next = await postInitialize(sim, "payment", paymentBody())
    expect(transactionOf(next).transactionId).toBe(7000000002)
  })

  it("treats the same body with members in another order as the same request", async () => {
    const { sim } = makeSimulator()
    const body = paymentBody()
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const first = await postInitialize(sim, "payment", body, { idempotencyKey: "key-1" })
    const replay = await postInitialize(sim, "payment", reordered, { idempotencyKey: "key-1" })
    expect(replay.body).toStrictEqual(first.body)
  })

  it("replays a 201 created-but-rejected answer too", async () => {
    const { sim } = makeSimulator()
    const body = paymentBody({ consumer: { consumerId: "+4700000000", name: "Refused" } })
    const first = await postInitialize(sim, "payment", body, { idempotencyKey: "key-r" })
    const replay = await postInitialize(sim, "payment", body, { idempotencyKey: "key-r" })
    expect(first.status).toBe(201)
    expect(replay).toEqual(first)
    expect((await getStatus(sim, 7000000002)).status).toBe(404)
  })

  it("creates a new transaction for a new key", async () => {
    const { sim } = makeSimulator()
    const first = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    const second = await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-2" })
    expect(transactionOf(second).transactionId).toBe(Number(transactionOf(first).transactionId) + 1)
  })

  it("answers 400 when a key is reused for a different request", async () => {
    const { sim, changes } = makeSimulator()
    await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })
    const before = changes()
    const otherAmount = paymentBody({
      purchaseAmount: { currencyCode: "EUR", nominalAmount: 1, vatAmount: 0, totalAmount: 1 },
    })
    const response = await postInitialize(sim, "payment", otherAmount, { idempotencyKey: "key-1" })
    expect(response.status).toBe(400)
    expect(faultsOf(response)[0]?.explanationText).toBe("This Idempotency-Key was already used for a different request")
    expect(changes()).toBe(before)
  })

  it("does not remember a 400, so the corrected request can be sent under the same key", async () => {
    const { sim } = makeSimulator()
    const wrong = paymentBody({
      purchaseAmount: { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 250, totalAmount: 1 },
    })
    expect((await postInitialize(sim, "payment", wrong, { idempotencyKey: "key-1" })).status).toBe(400)
    expect((await postInitialize(sim, "payment", paymentBody(), { idempotencyKey: "key-1" })).status).toBe(202)
  })

  it("scopes keys per merchant credentials", async () => {
    const merchantA = makeSimulator()
    await postInitialize(merchantA.sim, "payment", paymentBody(), { idempotencyKey: "shared-key" })
    const merchantB = makeSimulator({ consumerKey: "key-b", consumerSecret: "secret-b" })
    merchantB.sim.restore(merchantA.sim.snapshot())
    const response = await postInitialize(merchantB.sim, "payment", paymentBody(), {
      idempotencyKey: "shared-key",
      headers: { authorization: bearer("key-b", "secret-b") },
    })
    expect(response.status).toBe(202)
    expect(transactionOf(response).transactionId).toBe(7000000002)
  })

  it("replays a refund even when the same refund would now exceed what remains", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const fullRefund = refundBody(paymentId, 1250)
    const first = await postInitialize(sim, "refund", fullRefund, { idempotencyKey: "refund-1" })
    const replay = await postInitialize(sim, "refund", fullRefund, { idempotencyKey: "refund-1" })
    expect(first.status).toBe(202)
    expect(replay.body).toStrictEqual(first.body)
    const again = await postInitialize(sim, "refund", fullRefund, { idempotencyKey: "refund-2" })
    expect(again.status).toBe(400)
  })

  it("keys the request by type: the same key and body as a different type is a different request", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const body = refundBody(paymentId, 100, { terminalReference: "T-1" })
    expect((await postInitialize(sim, "refund", body, { idempotencyKey: "k" })).status).toBe(202)
    const asReversal = await postInitialize(sim, "reversal", body, { idempotencyKey: "k" })
    expect(asReversal.status).toBe(400)
    expect(faultsOf(asReversal)[0]?.explanationText).toContain("different request")
  })
})

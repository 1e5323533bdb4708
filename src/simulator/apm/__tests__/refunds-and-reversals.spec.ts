import type { SimResponse } from "../../http-types"
import {
  createFinalizedPayment,
  createPayment,
  extendedOf,
  faultFields,
  faultsOf,
  getStatus,
  makeSimulator,
  postInitialize,
  refundBody,
  reversalBody,
  transactionOf,
} from "./apm-test-kit"

function explanation(response: SimResponse): string {
  return faultsOf(response)[0]?.explanationText ?? ""
}

describe("APM simulator: refunds", () => {
  it("is its own transaction, FINALIZED with COMMIT at once and linked by originalReference", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const response = await postInitialize(sim, "refund", refundBody(paymentId, 500))
    expect(response.status).toBe(202)
    const refund = transactionOf(response)
    expect(refund).toMatchObject({
      transactionId: paymentId + 1,
      originalReference: String(paymentId),
      state: "FINALIZED",
      accountState: "COMMIT",
      receipt: { receiptClass: "REFUND" },
      transitions: [
        { to: "INITIALIZED", event: "CREATE" },
        { from: "INITIALIZED", to: "FINALIZED", event: "FINALIZE" },
      ],
    })
    const status = extendedOf(await getStatus(sim, refund.transactionId!))
    expect(status).toMatchObject({ state: "FINALIZED", accountState: "COMMIT", response: { responseCode: 0 } })
    expect(status.naa2Ecr?.additionalInfo).toBe(`Refund of payment ${paymentId}`)
    expect(extendedOf(await getStatus(sim, paymentId)).state).toBe("FINALIZED")
  })

  it("may be partial and repeated up to the payment's total, and no further", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    for (const amount of [500, 500, 250]) {
      expect((await postInitialize(sim, "refund", refundBody(paymentId, amount))).status).toBe(202)
    }
    const tooMuch = await postInitialize(sim, "refund", refundBody(paymentId, 1))
    expect(tooMuch.status).toBe(400)
    expect(faultsOf(tooMuch)).toEqual([
      {
        explanationText: `purchaseAmount.totalAmount exceeds what remains refundable on payment ${paymentId}`,
        params: { field: "purchaseAmount.totalAmount", totalAmount: "1", refundable: "0" },
      },
    ])
  })

  it("refuses more than what remains, naming what does", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    await postInitialize(sim, "refund", refundBody(paymentId, 1000))
    const response = await postInitialize(sim, "refund", refundBody(paymentId, 251))
    expect(faultsOf(response)[0]?.params?.refundable).toBe("250")
  })

  it.each([
    ["a payment still PENDING", "PENDING"],
    ["a REJECTED payment", "REJECTED"],
  ])("refuses to refund %s", async (_case, state) => {
    const { sim } = makeSimulator()
    const paymentId = await createPayment(sim)
    if (state === "REJECTED") sim.control("reject", String(paymentId))
    const response = await postInitialize(sim, "refund", refundBody(paymentId, 100))
    expect(response.status).toBe(400)
    expect(explanation(response)).toBe(`Payment ${paymentId} is ${state}; only a FINALIZED payment can be refunded`)
  })

  it.each(["7000000999", "abc", ""])("refuses an originalReference %p that names no payment", async (reference) => {
    const { sim } = makeSimulator()
    await createFinalizedPayment(sim)
    const response = await postInitialize(sim, "refund", refundBody(1, 100, { originalReference: reference }))
    expect(response.status).toBe(400)
    expect(faultFields(response)).toEqual(["originalReference"])
  })

  it("refuses an originalReference that names a refund instead of a payment", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const refundId = Number(
      transactionOf(await postInitialize(sim, "refund", refundBody(paymentId, 100))).transactionId,
    )
    const response = await postInitialize(sim, "refund", refundBody(refundId, 100))
    expect(response.status).toBe(400)
    expect(explanation(response)).toContain("is not the transactionId of a payment")
  })

  it.each([
    ["merchantId", { merchantId: "M-200" }],
    ["method", { method: "PSP_A_E_COM" }],
    [
      "purchaseAmount.currencyCode",
      { purchaseAmount: { currencyCode: "SEK", nominalAmount: 100, vatAmount: 0, totalAmount: 100 } },
    ],
  ])("refuses a refund whose %s differs from the payment's", async (field, overrides) => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const response = await postInitialize(sim, "refund", refundBody(paymentId, 100, overrides))
    expect(response.status).toBe(400)
    expect(faultFields(response)).toEqual([field])
  })
})

describe("APM simulator: held refunds (consumerId ending in 3333)", () => {
  const HELD = { consumer: { consumerId: "+4712343333", name: "Kari Nordmann" } }

  it("answers 202 INITIALIZED and waits until a control call settles the refund", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim, HELD)
    const response = await postInitialize(sim, "refund", refundBody(paymentId, 500))
    expect(response.status).toBe(202)
    const refundId = transactionOf(response).transactionId!
    expect(transactionOf(response)).toMatchObject({ state: "INITIALIZED" })
    expect(extendedOf(await getStatus(sim, refundId)).naa2Ecr?.additionalInfo).toBe(
      `Refund of payment ${paymentId} is waiting for the scheme`,
    )
    expect(sim.control("approve", String(refundId))).toMatchObject({
      status: 200,
      body: { state: "FINALIZED", accountState: "COMMIT" },
    })
    expect(sim.control("reject", String(refundId))).toMatchObject({
      status: 409,
      body: { ok: false, state: "FINALIZED" },
    })
  })

  it("gives the scheme's reason for a rejected refund, whose amount becomes refundable again", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim, HELD)
    const refundId = transactionOf(await postInitialize(sim, "refund", refundBody(paymentId, 1250))).transactionId!
    expect((await postInitialize(sim, "refund", refundBody(paymentId, 1))).status).toBe(400)
    expect(sim.control("reject", String(refundId))).toMatchObject({
      status: 200,
      body: { state: "REJECTED", accountState: "ROLLBACK" },
    })
    const refund = extendedOf(await getStatus(sim, refundId))
    expect(refund.naa2Ecr?.additionalInfo).toBe("The payer's account cannot receive refunds")
    expect((await postInitialize(sim, "refund", refundBody(paymentId, 1250))).status).toBe(202)
  })

  it("has no effect on the payment itself or on refunds of other consumers", async () => {
    const { sim } = makeSimulator()
    const held = await createPayment(sim, HELD)
    expect(extendedOf(await getStatus(sim, held)).state).toBe("PENDING")
    const other = await createFinalizedPayment(sim)
    expect(transactionOf(await postInitialize(sim, "refund", refundBody(other, 100))).state).toBe("FINALIZED")
  })
})

describe("APM simulator: reversals", () => {
  it("cancels a finalized payment (ROLLBACK) and is itself FINALIZED with COMMIT", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const response = await postInitialize(sim, "reversal", reversalBody(paymentId))
    expect(response.status).toBe(202)
    const reversal = transactionOf(response)
    expect(reversal).toMatchObject({
      originalReference: String(paymentId),
      terminalReference: "T-1",
      state: "FINALIZED",
      accountState: "COMMIT",
      receipt: { receiptClass: "REVERSAL" },
    })
    const payment = extendedOf(await getStatus(sim, paymentId))
    expect(payment).toMatchObject({ state: "CANCELLED", accountState: "ROLLBACK", response: { responseCode: -2 } })
    expect(payment.response?.request?.transaction?.cancel).toBe(true)
    expect(payment.response?.request?.transaction?.transitions?.at(-1)).toMatchObject({
      from: "FINALIZED",
      to: "CANCELLED",
      event: "CANCEL",
    })
    expect(payment.naa2Ecr?.additionalInfo).toBe(`Reversed by transaction ${reversal.transactionId}`)
  })

  it("cancels a payment still waiting for the consumer, which can then no longer be approved", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createPayment(sim)
    expect((await postInitialize(sim, "reversal", reversalBody(paymentId))).status).toBe(202)
    expect(extendedOf(await getStatus(sim, paymentId))).toMatchObject({ state: "CANCELLED", accountState: "ROLLBACK" })
    expect(sim.control("approve", String(paymentId)).status).toBe(409)
  })

  it("refuses to reverse a payment twice", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    await postInitialize(sim, "reversal", reversalBody(paymentId))
    const response = await postInitialize(sim, "reversal", reversalBody(paymentId))
    expect(response.status).toBe(400)
    expect(explanation(response)).toBe(`Payment ${paymentId} has already been reversed`)
  })

  it("refuses to reverse a payment that has been refunded, even in part", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    await postInitialize(sim, "refund", refundBody(paymentId, 100))
    const response = await postInitialize(sim, "reversal", reversalBody(paymentId))
    expect(response.status).toBe(400)
    expect(explanation(response)).toContain("has been refunded")
    expect(extendedOf(await getStatus(sim, paymentId)).state).toBe("FINALIZED")
  })

  it("refuses to refund a reversed payment", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    await postInitialize(sim, "reversal", reversalBody(paymentId))
    const response = await postInitialize(sim, "refund", refundBody(paymentId, 100))
    expect(response.status).toBe(400)
    expect(explanation(response)).toContain("is CANCELLED")
  })

  it.each(["reject", "expire"] as const)("refuses to reverse a payment the consumer let %s", async (action) => {
    const { sim } = makeSimulator()
    const paymentId = await createPayment(sim)
    sim.control(action, String(paymentId))
    const response = await postInitialize(sim, "reversal", reversalBody(paymentId))
    expect(response.status).toBe(400)
    expect(explanation(response)).toContain("only a PENDING or FINALIZED payment can be reversed")
  })

  it("refuses a reversal of part of the amount", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const partial = reversalBody(paymentId, {
      purchaseAmount: { currencyCode: "EUR", nominalAmount: 100, vatAmount: 0, totalAmount: 100 },
    })
    const response = await postInitialize(sim, "reversal", partial)
    expect(response.status).toBe(400)
    expect(faultsOf(response)[0]?.params).toEqual({
      field: "purchaseAmount.totalAmount",
      totalAmount: "100",
      expected: "1250",
    })
  })
})

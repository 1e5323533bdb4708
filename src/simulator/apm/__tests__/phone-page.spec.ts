import type { ApmSimulator } from "../index"
import {
  createFinalizedPayment,
  createPayment,
  envelopeOf,
  extendedOf,
  getStatus,
  makeSimulator,
  PUBLIC_URL,
  paymentBody,
  postInitialize,
  refundBody,
  simRequest,
  transactionOf,
} from "./apm-test-kit"

function openPhone(sim: ApmSimulator, transactionId: number | string) {
  return sim.handle(simRequest({ path: `/phone/${transactionId}` }))
}

function press(sim: ApmSimulator, transactionId: number | string, button: "approve" | "reject") {
  return sim.handle(
    simRequest({
      method: "POST",
      path: `/phone/${transactionId}/${button}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
  )
}

describe("APM simulator: the consumer's phone page", () => {
  it("shows merchant, amount by currency exponent, consumer and the two buttons for a pending payment", async () => {
    const { sim } = makeSimulator()
    const transactionId = await createPayment(sim, {
      method: "PSP_C",
      purchaseAmount: { currencyCode: "SEK", nominalAmount: 79920, vatAmount: 19980, totalAmount: 99900 },
    })
    const page = await openPhone(sim, transactionId)
    expect(page.status).toBe(200)
    expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(page.html).toContain("<h1>M-100</h1>")
    expect(page.html).toContain('data-testid="amount">999.00 SEK<')
    expect(page.html).toContain("Kari Nordmann")
    expect(page.html).toContain('data-testid="state">PENDING<')
    expect(page.html).toContain(`<form method="post" action="${transactionId}/approve">`)
    expect(page.html).toContain(`<form method="post" action="${transactionId}/reject">`)
  })

  it("is the approvalUrl of the initialize answer", async () => {
    const { sim } = makeSimulator()
    const response = await postInitialize(sim, "payment", paymentBody())
    const approvalUrl = new URL(envelopeOf(response).nextLink?.params?.approvalUrl ?? "missing:")
    expect(approvalUrl.origin).toBe(PUBLIC_URL)
    expect(approvalUrl.pathname).toBe(`/apm/phone/${transactionOf(response).transactionId}`)
  })

  it("Approve finalizes the payment and shows the outcome without buttons", async () => {
    const { sim, changes } = makeSimulator()
    const transactionId = await createPayment(sim)
    const outcome = await press(sim, transactionId, "approve")
    expect(outcome.status).toBe(200)
    expect(outcome.html).toContain('data-testid="notice">You approved the payment<')
    expect(outcome.html).toContain('data-testid="state">FINALIZED<')
    expect(outcome.html).not.toContain("<form")
    expect(changes()).toBe(2)
    expect(extendedOf(await getStatus(sim, transactionId))).toMatchObject({
      state: "FINALIZED",
      accountState: "COMMIT",
    })
  })

  it("Reject rejects the payment", async () => {
    const { sim } = makeSimulator()
    const transactionId = await createPayment(sim)
    const outcome = await press(sim, transactionId, "reject")
    expect(outcome.status).toBe(200)
    expect(outcome.html).toContain("You rejected the payment")
    expect(extendedOf(await getStatus(sim, transactionId))).toMatchObject({
      state: "REJECTED",
      accountState: "ROLLBACK",
    })
  })

  it("answers 409 with the reason when the payment was already decided, and changes nothing", async () => {
    const { sim, changes } = makeSimulator()
    const transactionId = await createPayment(sim)
    await press(sim, transactionId, "reject")
    const before = changes()
    const second = await press(sim, transactionId, "approve")
    expect(second.status).toBe(409)
    expect(second.html).toContain(`Transaction ${transactionId} is REJECTED; only a PENDING payment can be approved`)
    expect(changes()).toBe(before)
  })

  it("shows a refund without buttons", async () => {
    const { sim } = makeSimulator()
    const paymentId = await createFinalizedPayment(sim)
    const refundId = transactionOf(await postInitialize(sim, "refund", refundBody(paymentId, 100))).transactionId!
    const page = await openPhone(sim, refundId)
    expect(page.status).toBe(200)
    expect(page.html).toContain('data-testid="amount">1.00 EUR<')
    expect(page.html).not.toContain("<form")
  })

  it.each(["7000000999", "abc"])("answers 404 with a page for the unknown transaction %s", async (id) => {
    const { sim } = makeSimulator()
    expect(await openPhone(sim, id)).toMatchObject({ status: 404, html: expect.stringContaining("Unknown payment") })
    expect((await press(sim, id, "approve")).status).toBe(404)
  })

  it("escapes what the merchant sent", async () => {
    const { sim } = makeSimulator()
    const transactionId = await createPayment(sim, {
      merchantId: '<script>alert("m")</script>',
      consumer: { consumerId: "+4712345678", name: "<img src=x onerror=alert(1)>" },
    })
    const page = await openPhone(sim, transactionId)
    expect(page.html).not.toContain("<script>")
    expect(page.html).not.toContain("<img")
    expect(page.html).toContain("&#60;script&#62;alert(&#34;m&#34;)&#60;/script&#62;")
  })
})

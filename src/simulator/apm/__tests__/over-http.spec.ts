/** One pass through the real HTTP server, to prove the family is mounted and answers as over handle(). */
import { type RunningSimulator, startSimulator } from "../../index"

const JSON_V2 = "application/json;charset=utf-8;version=2.0"
const authorization = `Bearer ${Buffer.from("smoke-key:smoke-secret").toString("base64")}`

describe("APM simulator over HTTP", () => {
  let simulator: RunningSimulator

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      control: true,
      apmConsumerKey: "smoke-key",
      apmConsumerSecret: "smoke-secret",
    })
  })

  afterAll(() => simulator.close())

  function initialize(type: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${simulator.apmUrl}/ms/aapay/v2/transaction/${type}/initializeWithIdempotency`, {
      method: "POST",
      headers: { authorization, "content-type": JSON_V2, ...headers },
      body: JSON.stringify(body),
    })
  }

  const payment = {
    merchantId: "M-1",
    method: "PSP_A_E_COM",
    purchaseAmount: { currencyCode: "EUR", nominalAmount: 800, vatAmount: 200, totalAmount: 1000 },
    consumer: { consumerId: "+3581234567", name: "Matti" },
  }

  it("initializes, approves on the phone page, reads the status and refunds", async () => {
    const created = await initialize("payment", payment, { "idempotency-key": "smoke-1" })
    expect(created.status).toBe(202)
    const envelope = await created.json()
    const transactionId = envelope.response.request.transaction.transactionId
    expect(envelope.nextLink.uri).toBe(`${simulator.apmUrl}/ms/aapay/v2/transaction/${transactionId}`)

    const page = await fetch(envelope.nextLink.params.approvalUrl)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await page.text()).toContain("10.00 EUR")
    const approved = await fetch(new URL(`${transactionId}/approve`, envelope.nextLink.params.approvalUrl), {
      method: "POST",
    })
    expect(approved.status).toBe(200)

    const status = await fetch(envelope.nextLink.uri, { headers: { authorization } })
    expect(status.status).toBe(200)
    expect(await status.json()).toMatchObject({ state: "FINALIZED", accountState: "COMMIT" })

    const refund = await initialize(
      "refund",
      { ...payment, originalReference: String(transactionId) },
      { "idempotency-key": "smoke-2" },
    )
    expect(refund.status).toBe(202)
  })

  it("lets the control API expire a payment and refuses a request without credentials", async () => {
    const created = await (await initialize("payment", payment, { "idempotency-key": "smoke-3" })).json()
    const transactionId = created.response.request.transaction.transactionId
    const expired = await fetch(`${simulator.controlUrl}/apm/${transactionId}/expire`, { method: "POST" })
    expect(expired.status).toBe(200)
    expect(await expired.json()).toMatchObject({ ok: true, state: "TIMEDOUT" })

    const anonymous = await fetch(`${simulator.apmUrl}/ms/aapay/v2/transaction/${transactionId}`)
    expect(anonymous.status).toBe(401)
    expect((await anonymous.json()).error.componsiteFault.faults[0].params).toEqual({ header: "Authorization" })
  })
})

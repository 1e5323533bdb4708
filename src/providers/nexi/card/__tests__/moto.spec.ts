/**
 * The card provider's side of MOTO payments, against the simulator over HTTP: a session asked
 * for with the MOTO context reserves a gateway order id and starts no hosted page; once the
 * card is charged under that id (as POST /admin/nexi/moto does), authorizing and capturing
 * the session work like for any card payment.
 */
import { randomUUID } from "node:crypto"
import { STAFF_CHANNEL_CONTEXT_KEY } from "../../../../core/staff-sessions"
import { SIM_API_KEY } from "../../../../http/__tests__/support/simulator"
import { simulatedCardProvider } from "./support/simulated-card-provider"

const gateway = simulatedCardProvider()
const { provider } = gateway

/** What the admin route does between creating the session and authorizing it. */
async function chargeByMoto(orderId: string, amount: string, captureType = "EXPLICIT") {
  const answer = await fetch(`${gateway.simulator().gatewayUrl}/orders/moto`, {
    method: "POST",
    headers: { "x-api-key": SIM_API_KEY, "correlation-id": randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({
      order: { orderId, amount, currency: "EUR" },
      card: { pan: "4999340261977289", expiryDate: "1230" },
      captureType,
    }),
  })
  expect(answer.status).toBe(200)
}

const motoContext = { idempotency_key: "payses_m1", [STAFF_CHANNEL_CONTEXT_KEY]: "moto" } as never

describe("MOTO sessions of the card provider", () => {
  it("reserves a gateway order id and leaves the session waiting, without a hosted page", async () => {
    const started = await provider({ orderIdPrefix: "EU01" }).initiatePayment({
      amount: 39.98,
      currency_code: "eur",
      data: { session_id: "payses_m1" },
      context: motoContext,
    })
    expect(started.status).toBe("pending_authorization")
    expect(started.data).toEqual({
      session_id: "payses_m1",
      order_id: started.id,
      amount_minor: "3998",
      currency: "EUR",
      status: "pending",
      staff_channel: "moto",
    })
    expect(started.id).toMatch(/^EU01[0-9A-Z]{14}$/)
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("opens the attempt watched, like a hosted order: a charge whose answer was lost is still read by the job", async () => {
    const started = await provider({ pollPendingAfterSeconds: 120 }).initiatePayment({
      amount: 39.98,
      currency_code: "eur",
      data: { session_id: "payses_m1" },
      context: motoContext,
    })
    await chargeByMoto(started.id, "3998")
    const dueRefs = async (after: number) =>
      (await gateway.cradle().ledger.dueAttempts(new Date(Date.now() + after), 10)).map(
        (attempt) => attempt.gateway_ref,
      )
    expect(await dueRefs(0)).toEqual([])
    expect(await dueRefs(121_000)).toEqual([started.id])
  })

  it("treats MOTO-looking data sent by a storefront as an ordinary hosted checkout", async () => {
    const started = await provider().initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_s1", moto: true },
    })
    expect(started.status).toBe("pending")
    expect(started.data?.hosted_page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hpp\//)
    expect(await gateway.postCount("/orders/hpp")).toBe(1)
  })

  it("authorizes once the card was charged under the reserved id, and captures like any card payment", async () => {
    const card = provider()
    const started = await card.initiatePayment({
      amount: 39.98,
      currency_code: "eur",
      data: { session_id: "payses_m1" },
      context: motoContext,
    })
    await expect(card.authorizePayment({ data: started.data })).rejects.toThrow(/does not know this payment/)

    await chargeByMoto(started.id, "3998")
    const authorized = await card.authorizePayment({ data: started.data })
    expect(authorized.status).toBe("authorized")
    expect(authorized.data).toMatchObject({
      staff_channel: "moto",
      status: "authorized",
      payment_operation_id: expect.stringMatching(/^\d+$/),
    })

    gateway.cradle().captures.set("capt_m1", { id: "capt_m1", amount: 39.98 })
    const captured = await card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_m1" } })
    expect(captured.data).toMatchObject({ status: "captured", capture_operation_id: expect.stringMatching(/^\d+$/) })
    expect(await gateway.postCount(`/operations/${authorized.data?.payment_operation_id}/captures`)).toBe(1)
  })

  it("settles a charge whose answer was lost from its order id when the order is next read, rather than calling it refused", async () => {
    const card = provider()
    const started = await card.initiatePayment({
      amount: 39.98,
      currency_code: "eur",
      data: { session_id: "payses_m2" },
      context: motoContext,
    })
    const { ledger } = gateway.cradle()
    const charge = {
      kind: "moto" as const,
      origin: "staff" as const,
      idempotency_key: "moto-key",
      gateway_ref: started.id,
      amount_minor: "3998",
      currency: "EUR",
      medusa_ref: "payses_m2",
    }
    await ledger.requestWrite(charge)
    await chargeByMoto(started.id, "3998")
    await ledger.updateWrite(charge.idempotency_key, { outcome: "unknown" })

    const authorized = await card.authorizePayment({ data: started.data })
    gateway.cradle().captures.set("capt_m2", { id: "capt_m2", amount: 39.98 })
    await card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_m2" } })

    expect(ledger.writes.find((write) => write.kind === "moto")).toMatchObject({
      outcome: "executed",
      gateway_operation_id: expect.stringMatching(/^\d+$/),
    })
  })

  it("reports a MOTO payment captured at once (IMPLICIT) as captured", async () => {
    const card = provider({ captureType: "IMPLICIT" })
    const started = await card.initiatePayment({
      amount: 5,
      currency_code: "eur",
      data: { session_id: "payses_m2" },
      context: motoContext,
    })
    await chargeByMoto(started.id, "500", "IMPLICIT")
    expect((await card.authorizePayment({ data: started.data })).status).toBe("captured")
  })

  it("refuses to change a MOTO session's amount, which could abandon a charge", async () => {
    const card = provider()
    const started = await card.initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_m3" },
      context: motoContext,
    })
    const same = await card.updatePayment({ amount: "10.00", currency_code: "eur", data: started.data })
    expect(same.data?.order_id).toBe(started.id)
    await expect(card.updatePayment({ amount: 12, currency_code: "eur", data: started.data })).rejects.toThrow(
      "a MOTO payment's amount cannot change",
    )
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("still refuses a new amount on a session stored before the channels, marked `moto: true`", async () => {
    const data = { session_id: "payses_m4", order_id: "EU01OLD", amount_minor: "1000", currency: "EUR", moto: true }
    await expect(provider().updatePayment({ amount: 12, currency_code: "eur", data })).rejects.toThrow(
      "a MOTO payment's amount cannot change",
    )
  })

  it("reserves an order id without a hosted page for each staff channel", async () => {
    for (const channel of ["mit", "payment_link"]) {
      const started = await provider().initiatePayment({
        amount: 10,
        currency_code: "eur",
        data: { session_id: `payses_${channel}` },
        context: { idempotency_key: `payses_${channel}`, [STAFF_CHANNEL_CONTEXT_KEY]: channel } as never,
      })
      expect(started).toMatchObject({ status: "pending_authorization", data: { staff_channel: channel } })
    }
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })
})

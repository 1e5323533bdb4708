/**
 * The card provider's methods against the simulator over HTTP, without a Medusa app: what
 * each call sends to the gateway and keeps on the session. (Medusa's own records are not
 * there, so the provider falls back to the session amounts; the integration suites cover those.)
 */
import { NexiCardProviderService } from "../card-provider"
import { simulatedCardProvider } from "./support/simulated-card-provider"

const gateway = simulatedCardProvider({ resultUrl: "https://shop.test/result?cart_id={cart_id}&session={session_id}" })
const { provider } = gateway

describe("NexiCardProviderService", () => {
  it("refuses bad options at load, naming each option", () => {
    expect(() => NexiCardProviderService.validateOptions({ environment: "nowhere", captureType: "LATER" })).toThrow(
      /apiKey: .*environment: .*captureType: /s,
    )
  })

  it("starts a hosted order and keeps only a hash of the security token on the session", async () => {
    const started = await provider().initiatePayment({
      amount: 19.99,
      currency_code: "eur",
      data: { session_id: "payses_1" },
      context: { idempotency_key: "payses_1", customer: { id: "cus_1", email: "giulia@example.com" } },
    })
    expect(started.data).toMatchObject({
      session_id: "payses_1",
      amount_minor: "1999",
      currency: "EUR",
      status: "pending",
    })
    expect(started.data?.security_token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(started.data)).not.toMatch(/securityToken/)
    const order = (await (
      await fetch(`${gateway.simulator().gatewayUrl}/orders/${started.id}`, {
        headers: { "x-api-key": "5d952446-9004-4023-9eae-a527a152846b", "correlation-id": crypto.randomUUID() },
      })
    ).json()) as { orderStatus: { order: Record<string, unknown> } }
    expect(order.orderStatus.order).toMatchObject({ customField: "payses_1", customerId: "cus_1", amount: "1999" })
  })

  it("never lets Medusa record more than the gateway holds: a session asking more than was paid reads as an error", async () => {
    const card = provider()
    const started = await card.initiatePayment({ amount: 10, currency_code: "eur", data: { session_id: "payses_h" } })
    await fetch(`${gateway.simulator().controlUrl}/hpp/${started.id}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pan: "4999340261977289", expiryDate: "1230", cvv: "663" }),
    })
    expect((await card.getPaymentStatus({ data: started.data })).status).toBe("authorized")
    const askingMore = { ...started.data, amount_minor: "1001" }
    const read = await card.authorizePayment({ data: askingMore })
    expect(read.status).toBe("error")
    expect(read.data?.reason).toBe("The gateway authorized less than the session amount.")
  })

  it("starts a new gateway order only when the amount or currency changes", async () => {
    const card = provider()
    const started = await card.initiatePayment({ amount: 10, currency_code: "eur", data: { session_id: "payses_2" } })
    const same = await card.updatePayment({ amount: "10.00", currency_code: "eur", data: started.data })
    expect(same.data?.order_id).toBe(started.id)
    expect(await gateway.postCount("/orders/hpp")).toBe(1)
    const changed = await card.updatePayment({ amount: 12, currency_code: "eur", data: same.data })
    expect(changed.data?.order_id).not.toBe(started.id)
    expect(changed.data?.amount_minor).toBe("1200")
    expect(await gateway.postCount("/orders/hpp")).toBe(2)
  })

  it("opens an XPay Build session: its fields and SDK on the session, the token's hash with the attempt", async () => {
    const card = provider()
    const started = await card.initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_b1", integration: "build" },
    })
    const data = started.data as Record<string, string> & { build_fields: Array<{ id: string; src: string }> }
    expect(data.hosted_page).toBeUndefined()
    expect(data.build_fields.map((field) => field.id)).toContain("CARD_NUMBER")
    expect(data.build_fields[0].src).toContain(`sid=${encodeURIComponent(data.build_session_id)}`)
    expect(data.build_sdk).toBe(`${gateway.simulator().publicUrl}/monetaweb/resources/hfsdk.js`)
    expect(JSON.stringify(data)).not.toMatch(/securityToken/)
    const attempt = await gateway.cradle().ledger.findAttempt(started.id)
    expect(attempt?.security_token_hash).toBe(data.security_token_hash)
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
    // A new amount is a new Build session under a new gateway order, as for a hosted page.
    const changed = await card.updatePayment({ amount: 12, currency_code: "eur", data })
    expect(changed.data?.build_session_id).not.toBe(data.build_session_id)
    expect(await gateway.postCount("/orders/build")).toBe(2)
  })

  it("pays with a wallet the options offer: its page for a hosted order and for a Build session, refusing another before sending", async () => {
    const card = provider({ wallets: ["GOOGLEPAY"] })
    const hosted = await card.initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_w1", wallet: "GOOGLEPAY" },
    })
    const page = await (await fetch(String(hosted.data?.hosted_page))).text()
    expect(page).toContain('data-wallet="GOOGLEPAY"')
    expect(page).not.toContain('id="pan"')
    // A Build session of a wallet has no fields: its page, where the shopper is sent, replaces them.
    const build = await card.initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_w2", wallet: "GOOGLEPAY", integration: "build" },
    })
    expect(build.data).toMatchObject({ hosted_page: expect.stringContaining("/hpp/"), status: "pending" })
    expect(build.data).not.toHaveProperty("build_fields")
    expect(build.data).not.toHaveProperty("build_session_id")
    expect(await gateway.cradle().ledger.findAttempt(build.id)).toMatchObject({
      security_token_hash: build.data?.security_token_hash,
    })
    const refused = card.initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_w3", wallet: "APPLEPAY" },
    })
    await expect(refused).rejects.toThrow(/^data\.wallet: this store does not offer Apple Pay/)
    expect(await gateway.postCount("/orders/hpp")).toBe(1)
    expect(await gateway.postCount("/orders/build")).toBe(1)
  })

  it("refuses an unknown integration, naming the field", async () => {
    const started = provider().initiatePayment({
      amount: 10,
      currency_code: "eur",
      data: { session_id: "payses_b2", integration: "iframe" },
    })
    await expect(started).rejects.toThrow(/integration: must be "build"/)
  })

  it("answers not_supported to a notification whose token does not match, and its sync reads nothing from the gateway", async () => {
    const card = provider()
    const started = await card.initiatePayment({ amount: 10, currency_code: "eur", data: { session_id: "payses_3" } })
    const forged = {
      data: { eventId: "e1", eventTime: 1, securityToken: "forged", operation: { orderId: started.id } },
      rawData: Buffer.from(""),
      headers: {},
    }
    const result = await card.getWebhookActionAndData(forged)
    expect(result.action).toBe("not_supported")
    await expect(gateway.sync().notification(forged)).resolves.toBe("unchanged")
    const { requests } = (await (await fetch(`${gateway.simulator().controlUrl}/requests`)).json()) as {
      requests: Array<{ method: string }>
    }
    expect(requests.filter((request) => request.method === "GET")).toEqual([])
    expect(gateway.applied()).toEqual([])
  })

  it("refuses an unknown currency with a message naming the field, before anything is sent", async () => {
    const card = provider()
    await expect(
      card.initiatePayment({ amount: 10, currency_code: "xxx", data: { session_id: "payses_4" } }),
    ).rejects.toThrow(/currency_code: "XXX" is not an ISO 4217 currency/)
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("turns a gateway refusal into a message that carries the gateway's code", async () => {
    const card = provider({ notificationUrl: "http://localhost:9000" })
    await fetch(`${gateway.simulator().controlUrl}/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        match: { method: "POST", path: "/api/phoenix-0.0/psp/api/v1/orders/hpp" },
        times: 1,
        action: {
          type: "status",
          status: 400,
          body: { errors: [{ code: "GW0001", description: "invalid merchant URL" }] },
        },
      }),
    })
    await expect(
      card.initiatePayment({ amount: 10, currency_code: "eur", data: { session_id: "payses_5" } }),
    ).rejects.toThrow(/GW0001: invalid merchant URL/)
  })
})

/**
 * Payment links: the state staff and shoppers see (pure), and the link's two writes through the
 * one sender against the simulator over HTTP, its fault injection standing in for lost answers.
 */

import { InMemoryLedger } from "../../../test-support/in-memory-ledger"
import { createGatewayClient, type HttpGatewayClient } from "../../gateway/http-gateway-client"
import { newOrderId } from "../../gateway/order-id"
import type { PayByLinkRequest } from "../../gateway/schemas"
import { SIM_API_KEY, SimulatorHarness } from "../../http/__tests__/support/simulator"
import { InvalidRequestError } from "../../http/errors"
import type { MoneyWrite } from "../../modules/nexi-ledger/types"
import {
  cancelLinkOfAttempt,
  cancelLinkOnce,
  createLinkOnce,
  linkExpirationDate,
  linkOutcomeOf,
  linkStateOf,
  linkViewsOf,
  payableUntil,
} from "../card/payment-links"

const NOW = new Date("2026-11-27T15:30:00Z")

describe("a payment link's expiry and state", () => {
  it("counts expiry days from today (UTC)", () => {
    expect(linkExpirationDate(7, NOW)).toBe("2026-12-04")
    expect(linkExpirationDate(90, NOW)).toBe("2027-02-25")
    expect(linkExpirationDate(1, new Date("2026-12-31T23:59:59Z"))).toBe("2027-01-01")
  })

  it("says until when an order's links can be paid: the latest expiry, a bare date to its day's end", () => {
    const link = (expirationDate?: string) => ({ linkId: "L", link: "https://pay/x", amount: "500", expirationDate })
    expect(payableUntil([link("2026-12-04"), link("2026-11-30T10:00:00Z")])).toEqual(
      new Date("2026-12-04T23:59:59.999Z"),
    )
    expect(payableUntil([link(undefined)])).toBeUndefined()
    expect(payableUntil([])).toBeUndefined()
  })

  it("reads paid, cancelled, expired and open, paid first", () => {
    const link = { linkId: "L1", link: "https://pay/x", amount: "500", expirationDate: "2026-11-30T23:59:59.999Z" }
    expect(linkStateOf(link, false, NOW)).toBe("open")
    expect(linkStateOf(link, true, NOW)).toBe("cancelled")
    expect(linkStateOf(link, false, new Date("2026-12-01T00:00:00Z"))).toBe("expired")
    expect(linkStateOf({ ...link, expirationDate: "2026-11-30" }, false, new Date("2026-11-30T23:00:00Z"))).toBe("open")
    expect(linkStateOf({ ...link, paidByOperationId: "OP1" }, true, new Date("2027-01-01T00:00:00Z"))).toBe("paid")
  })

  it("takes a cancellation from the ledger only once the gateway executed it", () => {
    const links = [
      { linkId: "L1", link: "https://pay/1", amount: "500", expirationDate: "2026-12-30T23:59:59.999Z" },
      { linkId: "L2", link: "https://pay/2", amount: "700", expirationDate: "2026-12-30T23:59:59.999Z" },
    ]
    const write = (target: string, outcome: MoneyWrite["outcome"]) =>
      ({ kind: "link_cancellation", target_ref: target, outcome }) as MoneyWrite
    const views = linkViewsOf("ORD1", "EUR", links, [write("L1", "executed"), write("L2", "refused")], NOW)
    expect(views.map((view) => [view.link_id, view.state, view.amount_minor])).toEqual([
      ["L1", "cancelled", "500"],
      ["L2", "open", "700"],
    ])
  })
})

describe("what the customer who followed a link is told", () => {
  const unpaid = { status: "pending" as const }
  const declined = { status: "error" as const, reason: "The card issuer declined the payment." }
  const abandoned = { status: "canceled" as const, reason: "The shopper cancelled the payment on the hosted page." }

  it("says paid when the gateway holds the payment, whatever the link's record says", () => {
    expect(linkOutcomeOf("paid", { status: "authorized" }, true)).toEqual({ status: "paid" })
    expect(linkOutcomeOf("open", { status: "captured" }, true)).toEqual({ status: "paid" })
    // A voided link payment is still a paid link: staff undid it afterwards.
    expect(linkOutcomeOf("paid", { status: "canceled", reason: "The authorization was voided." }, true)).toEqual({
      status: "paid",
    })
  })

  it("says a payment on a link no longer owned (replaced or cancelled as it was paid) is given back", () => {
    expect(linkOutcomeOf("paid", { status: "authorized" }, false)).toEqual({
      status: "cancelled",
      reason: expect.stringMatching(/replaced or cancelled .*given back/),
    })
  })

  it("says cancelled by the store and expired before what the payment page recorded", () => {
    expect(linkOutcomeOf("cancelled", declined, true)).toEqual({
      status: "cancelled",
      reason: "The store cancelled this payment link.",
    })
    expect(linkOutcomeOf("expired", unpaid, true)).toEqual({
      status: "expired",
      reason: "This payment link has expired.",
    })
  })

  it("says declined or cancelled on the payment page with the read model's reason, and pending otherwise", () => {
    expect(linkOutcomeOf("open", declined, true)).toEqual({ status: "declined", reason: declined.reason })
    expect(linkOutcomeOf("open", abandoned, true)).toEqual({ status: "cancelled", reason: abandoned.reason })
    expect(linkOutcomeOf("open", unpaid, true)).toEqual({ status: "pending" })
  })
})

describe("a payment link's writes, sent once", () => {
  let harness: SimulatorHarness
  let gateway: HttpGatewayClient
  let ledger: InMemoryLedger

  beforeAll(async () => {
    harness = await SimulatorHarness.start()
  })
  beforeEach(async () => {
    await harness.reset()
    ledger = new InMemoryLedger()
    gateway = createGatewayClient({
      apiKey: SIM_API_KEY,
      environment: harness.sim.gatewayUrl,
      timeoutMs: 300,
      retries: 1,
      retryBaseDelayMs: 1,
    })
  })
  afterEach(() => gateway.close())
  afterAll(() => harness.close())

  function linkRequest(): PayByLinkRequest {
    return {
      order: { orderId: newOrderId("L"), amount: "2500", currency: "EUR" },
      paymentSession: {
        actionType: "PAY",
        amount: "2500",
        language: "ita",
        resultUrl: "https://shop.example/result",
        cancelUrl: "https://shop.example/cancel",
      },
      expirationDate: linkExpirationDate(7, new Date()),
    } as PayByLinkRequest
  }
  const linkPath = () => harness.gatewayPath("/orders/paybylink")

  it("creates the link, records the write executed, and answers the token", async () => {
    const request = linkRequest()
    const created = await createLinkOnce({ gateway, ledger }, request, "order_1")
    expect(created.securityToken).toBeTruthy()
    expect(created.link.link).toMatch(/^http/)
    const [write] = await ledger.writesOf(request.order.orderId)
    expect(write).toMatchObject({
      kind: "link_creation",
      outcome: "executed",
      gateway_operation_id: created.link.linkId,
    })
  })

  it("settles a lost answer by the order's paymentLinks: one link, no second one", async () => {
    await harness.fault({
      match: { method: "POST", path: linkPath() },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    const request = linkRequest()
    const created = await createLinkOnce({ gateway, ledger }, request, "order_1")
    expect(created.securityToken).toBeUndefined()
    const details = await gateway.getOrder(request.order.orderId)
    expect(details.paymentLinks.map((link) => link.linkId)).toEqual([created.link.linkId])
    // Staff press again: answered from the ledger, nothing sent.
    const again = await createLinkOnce({ gateway, ledger }, request, "order_1")
    expect(again.link.linkId).toBe(created.link.linkId)
    expect((await harness.requestsTo("POST", linkPath())).map((sent) => sent.status)).toEqual([0])
  })

  it("cancels once, again after a lost answer, and refuses to cancel a paid link", async () => {
    const request = linkRequest()
    const { link } = await createLinkOnce({ gateway, ledger }, request, "order_1")
    const view = {
      link_id: link.linkId,
      gateway_order_id: request.order.orderId,
      amount_minor: "2500",
      currency: "EUR",
    }
    const cancelPath = harness.gatewayPath(`/paybylink/${link.linkId}/cancels`)
    await harness.fault({
      match: { method: "POST", path: cancelPath },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    await cancelLinkOnce({ gateway, ledger }, view)
    const writes = await ledger.writesOf(request.order.orderId)
    expect(writes.find((write) => write.kind === "link_cancellation")).toMatchObject({ outcome: "executed" })
    await expect(harness.payLink(link.linkId)).rejects.toThrow(/answered 409/)

    const other = linkRequest()
    const second = await createLinkOnce({ gateway, ledger }, other, "order_2")
    await harness.payLink(second.link.linkId)
    await expect(
      cancelLinkOnce(
        { gateway, ledger },
        { ...view, link_id: second.link.linkId, gateway_order_id: other.order.orderId },
      ),
    ).rejects.toBeInstanceOf(InvalidRequestError)
  })

  it("cancels the link of a gateway order found in the ledger, leaves a paid one, and does nothing without a link", async () => {
    const request = linkRequest()
    const { link } = await createLinkOnce({ gateway, ledger }, request, "order_1")
    await cancelLinkOfAttempt({ gateway, ledger }, request.order.orderId)
    const writes = await ledger.writesOf(request.order.orderId)
    expect(writes.find((write) => write.kind === "link_cancellation")).toMatchObject({
      outcome: "executed",
      target_ref: link.linkId,
    })
    await expect(harness.payLink(link.linkId)).rejects.toThrow(/answered 409/)

    const paid = linkRequest()
    const second = await createLinkOnce({ gateway, ledger }, paid, "order_2")
    await harness.payLink(second.link.linkId)
    await expect(cancelLinkOfAttempt({ gateway, ledger }, paid.order.orderId)).resolves.toBeUndefined()
    await expect(cancelLinkOfAttempt({ gateway, ledger }, "NOLINK")).resolves.toBeUndefined()
    expect(await ledger.writesOfMedusaRef("order_2", "link_creation")).toHaveLength(1)
  })
})

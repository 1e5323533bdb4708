/**
 * POST /orders/paybylink and /paybylink/{linkId}/cancels over HTTP: the link opens the hosted
 * page, is paid once, notifies the merchant with the link's securityToken, and shows in the
 * order lookup with paidByOperationId; a cancelled or expired link (by the simulator's clock)
 * takes no payment, on the page and through the control API.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DEFAULTS, startSimulator } from "../index"
import { operationSteps, SimulatorHarness, setUpSimulator } from "./support/harness"
import { type Receiver, startReceiver } from "./support/receiver"
import { CARDS } from "./support/test-cards"

const OTHER_MERCHANT = "other-merchant"
const harness = setUpSimulator({ apiKeys: [DEFAULTS.apiKey, OTHER_MERCHANT] })
const DAY_MS = 86_400_000
const FORM = { "content-type": "application/x-www-form-urlencoded" }

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())
beforeEach(() => {
  receiver.received.length = 0
})

function dateIn(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10)
}

function linkBody(overrides: { session?: object; expirationDate?: string; order?: object } = {}) {
  return {
    order: {
      orderId: harness.newOrderId(),
      amount: "4200",
      currency: "EUR",
      description: "Balance",
      ...overrides.order,
    },
    paymentSession: {
      amount: "4200",
      language: "ita",
      resultUrl: "https://shop.example/result",
      notificationUrl: receiver.url,
      ...overrides.session,
    },
    expirationDate: overrides.expirationDate ?? dateIn(7),
  }
}

async function createLink(overrides: Parameters<typeof linkBody>[0] = {}, apiKey?: string) {
  const body = linkBody(overrides)
  const answer = await harness.gateway("POST", "/orders/paybylink", { body, apiKey })
  expect(answer.status).toBe(200)
  return { orderId: body.order.orderId, ...answer.body } as {
    orderId: string
    paymentLink: { linkId: string; link: string; amount: string; expirationDate: string }
    securityToken: string
  }
}

const payLink = (linkId: string, body: object) => harness.control("POST", `/paybylink/${linkId}/pay`, body)
const cancelLink = (linkId: string, apiKey?: string) =>
  harness.gateway("POST", `/paybylink/${linkId}/cancels`, { apiKey })

describe("POST /orders/paybylink", () => {
  it("answers the link (a hosted page), its amount, the end of its expirationDate and the securityToken", async () => {
    const expirationDate = dateIn(30)
    const created = await createLink({ expirationDate })
    expect(created.paymentLink).toEqual({
      linkId: expect.stringMatching(/^[A-Za-z0-9]{1,18}$/),
      amount: "4200",
      expirationDate: `${expirationDate}T23:59:59.999Z`,
      link: expect.stringMatching(new RegExp(`^${harness.sim.publicUrl}/hpp/${created.orderId}\\?token=`)),
    })
    expect(created.securityToken).toEqual(expect.any(String))
    expect(created.paymentLink.link).not.toContain(created.securityToken)
    const page = await harness.call("GET", created.paymentLink.link)
    expect(page.status).toBe(200)
    expect(page.body).toContain("42.00 EUR")
  })

  it("lists the unpaid link in the order lookup, with no operation yet", async () => {
    const created = await createLink()
    const order = await harness.order(created.orderId)
    expect(order.body.operations).toEqual([])
    expect(order.body.paymentLinks).toEqual([created.paymentLink])
  })

  it.each([
    ["a date that has passed", dateIn(-1), /^expirationDate: .* has passed/],
    ["a date more than 90 days ahead", dateIn(92), /^expirationDate: .* is more than 90 days ahead/],
    ["a date-time instead of a date", new Date().toISOString(), /^expirationDate: must be a date YYYY-MM-DD/],
    ["no calendar day", "2026-02-30", /^expirationDate: is not a calendar date/],
    ["no calendar month", "2026-13-01", /^expirationDate: is not a calendar date/],
  ])("refuses %s, naming expirationDate", async (_case, expirationDate, description) => {
    const answer = await harness.gateway("POST", "/orders/paybylink", { body: linkBody({ expirationDate }) })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual([{ code: "SIM0400", description: expect.stringMatching(description) }])
  })

  it("checks the order and session as /orders/hpp does, and takes only actionType PAY", async () => {
    const answer = await harness.gateway("POST", "/orders/paybylink", {
      body: linkBody({ session: { amount: "5000", actionType: "VERIFY", notificationUrl: "ftp://x" } }),
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        { code: "PS0007", description: expect.stringMatching(/^paymentSession\.amount: 5000 is above/) },
        { code: "GW0001", description: expect.stringMatching(/^paymentSession\.notificationUrl: /) },
        {
          code: "SIM0400",
          description: expect.stringMatching(/^paymentSession\.actionType: a payment link .* takes PAY/),
        },
      ]),
    )
  })
})

describe("paying a link", () => {
  it("is paid once: the operations carry paymentLinkId, the lookup names the paying operation, a second payment is refused", async () => {
    const { orderId, paymentLink } = await createLink()
    const paid = await payLink(paymentLink.linkId, { outcome: "approve" })
    expect(paid.status).toBe(200)
    expect(paid.body.result).toBe("AUTHORIZED")
    const order = await harness.order(orderId)
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"])
    for (const operation of order.body.operations) {
      expect(operation).toMatchObject({ channel: "ECOMMERCE", paymentLinkId: paymentLink.linkId })
    }
    const paying = order.body.operations[1].operationId
    expect(order.body.paymentLinks).toEqual([{ ...paymentLink, paidByOperationId: paying }])
    const again = await payLink(paymentLink.linkId, { outcome: "approve" })
    expect(again.status).toBe(409)
    expect(operationSteps((await harness.order(orderId)).body)).toHaveLength(2)
    expect((await cancelLink(paymentLink.linkId)).body.errors).toEqual([
      { code: "SIM0409", description: expect.stringContaining(`was paid by operation ${paying}`) },
    ])
  })

  it("notifies the merchant like a hosted payment, with the link's securityToken and paymentLinkId", async () => {
    const { paymentLink, securityToken } = await createLink({ session: { captureType: "IMPLICIT" } })
    const paid = await payLink(paymentLink.linkId, { ...CARDS.approvedMc })
    expect(paid.body.notification).toMatchObject({ status: 200 })
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0].body).toMatchObject({
      securityToken,
      operation: {
        operationType: "CAPTURE",
        operationResult: "EXECUTED",
        paymentLinkId: paymentLink.linkId,
        paymentCircuit: "MC",
      },
    })
  })

  it("a decline is final, as on the hosted page, and pays nothing: no paidByOperationId", async () => {
    const { orderId, paymentLink } = await createLink()
    const declined = await payLink(paymentLink.linkId, { outcome: "decline" })
    expect(declined.body.result).toBe("DECLINED")
    const order = await harness.order(orderId)
    expect(order.body.paymentLinks[0].paidByOperationId).toBeUndefined()
    expect(receiver.received[0].body.operation).toMatchObject({
      operationResult: "DECLINED",
      paymentLinkId: paymentLink.linkId,
    })
  })

  it("goes through the 3-D Secure challenge of a challenge card", async () => {
    const { paymentLink } = await createLink()
    const failed = await payLink(paymentLink.linkId, { ...CARDS.challengeMc, challenge: "fail" })
    expect(failed.body.result).toBe("THREEDS_FAILED")
  })

  it("is paid on the hosted page the link opens (HTML form)", async () => {
    const { orderId, paymentLink } = await createLink()
    const payUrl = paymentLink.link.replace(`/hpp/${orderId}?`, `/hpp/${orderId}/pay?`)
    const fields = { pan: CARDS.approved.pan, expiry: CARDS.approved.expiryDate, cvv: CARDS.approved.cvv }
    const answer = await harness.call("POST", payUrl, { body: new URLSearchParams(fields).toString(), headers: FORM })
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe("https://shop.example/result")
    expect((await harness.order(orderId)).body.paymentLinks[0].paidByOperationId).toEqual(expect.any(String))
  })

  it("the control API picks a card: outcome approve or decline without pan, or the card sent", async () => {
    const invalid = await payLink((await createLink()).paymentLink.linkId, { outcome: "maybe" })
    expect(invalid.status).toBe(400)
    expect(invalid.body.errors[0].description).toMatch(/^outcome: /)
    expect((await payLink("NOLINK", { outcome: "approve" })).status).toBe(404)
    const notLuhn = await payLink((await createLink()).paymentLink.linkId, CARDS.notLuhn)
    expect(notLuhn.status).toBe(400)
  })
})

describe("cancelled and expired links", () => {
  it("a cancelled link cannot be paid: the page says so (410) and the control API refuses (409); a repeated cancel answers 200", async () => {
    const { orderId, paymentLink } = await createLink()
    const cancelled = await cancelLink(paymentLink.linkId)
    expect(cancelled.status).toBe(200)
    expect((await cancelLink(paymentLink.linkId)).status).toBe(200)
    const page = await harness.call("GET", paymentLink.link)
    expect(page.status).toBe(410)
    expect(page.body).toContain("was cancelled by the merchant")
    const refused = await payLink(paymentLink.linkId, { outcome: "approve" })
    expect(refused.status).toBe(409)
    expect(refused.body.errors[0].description).toBe(`payment link ${paymentLink.linkId} was cancelled by the merchant`)
    expect((await harness.order(orderId)).body.operations).toEqual([])
    expect(receiver.received).toEqual([])
  })

  it("a link cancelled while the shopper is in the 3-D Secure challenge takes no payment", async () => {
    const { orderId, paymentLink } = await createLink()
    const payUrl = paymentLink.link.replace(`/hpp/${orderId}?`, `/hpp/${orderId}/pay?`)
    const fields = { pan: CARDS.challenge.pan, expiry: "1230", cvv: CARDS.challenge.cvv }
    const submitted = await harness.call("POST", payUrl, {
      body: new URLSearchParams(fields).toString(),
      headers: FORM,
    })
    expect(submitted.status).toBe(303)
    await cancelLink(paymentLink.linkId)
    const challengeUrl = paymentLink.link.replace(`/hpp/${orderId}?`, `/hpp/${orderId}/challenge?`)
    const answer = await harness.call("POST", challengeUrl, {
      body: new URLSearchParams({ outcome: "pass" }).toString(),
      headers: FORM,
    })
    expect(answer.status).toBe(410)
    expect((await harness.order(orderId)).body.operations).toEqual([])
  })

  it("expires after the end of its expirationDate by the simulator's clock, and not before", async () => {
    const expirationDate = dateIn(1)
    const { orderId, paymentLink } = await createLink({ expirationDate })
    const lastMoment = Date.parse(`${expirationDate}T23:59:59.000Z`) - Date.now()
    await harness.control("POST", "/clock", { offsetMs: lastMoment })
    expect((await harness.call("GET", paymentLink.link)).status).toBe(200)
    await harness.control("POST", "/clock", { offsetMs: lastMoment + 1_000 })
    const page = await harness.call("GET", paymentLink.link)
    expect(page.status).toBe(410)
    expect(page.body).toContain(`expired at the end of ${expirationDate} (UTC)`)
    const refused = await payLink(paymentLink.linkId, { outcome: "approve" })
    expect(refused.body.errors[0].description).toBe(
      `payment link ${paymentLink.linkId} expired at the end of ${expirationDate} (UTC)`,
    )
    expect((await harness.order(orderId)).body.operations).toEqual([])
  })

  it("expires now through the control API: the lookup shows the expiry passed and the page takes nothing", async () => {
    const { orderId, paymentLink } = await createLink()
    const expired = (await harness.control("POST", `/paybylink/${paymentLink.linkId}/expire`)).body
    expect(Date.parse(expired.expirationDate)).toBeLessThan(Date.now())
    const lookup = await harness.order(orderId)
    expect(lookup.body.paymentLinks[0].expirationDate).toBe(expired.expirationDate)
    expect((await harness.call("GET", paymentLink.link)).status).toBe(410)
    expect((await payLink(paymentLink.linkId, { outcome: "approve" })).status).toBe(409)
    expect((await harness.control("POST", "/paybylink/L0000/expire")).status).toBe(404)
  })

  it("cancel answers 404 for an unknown link and another merchant's", async () => {
    const { paymentLink } = await createLink()
    expect((await cancelLink("L0000")).status).toBe(404)
    expect((await cancelLink(paymentLink.linkId, OTHER_MERCHANT)).status).toBe(404)
    expect((await payLink(paymentLink.linkId, { outcome: "approve" })).status).toBe(200)
  })
})

describe("faults, as on every endpoint", () => {
  it("a lost answer to the creation leaves the link in the order lookup", async () => {
    await harness.control("POST", "/faults", {
      match: { path: "/api/phoenix-0.0/psp/api/v1/orders/paybylink" },
      times: 1,
      phase: "after",
      action: { type: "status", status: 500 },
    })
    const body = linkBody()
    expect((await harness.gateway("POST", "/orders/paybylink", { body })).status).toBe(500)
    expect((await harness.order(body.order.orderId)).body.paymentLinks).toHaveLength(1)
  })

  it("a 503 before the cancel leaves the link payable; a reset answers nothing", async () => {
    const { paymentLink } = await createLink()
    const path = `/api/phoenix-0.0/psp/api/v1/paybylink/${paymentLink.linkId}/cancels`
    await harness.control("POST", "/faults", { match: { path }, times: 1, action: { type: "status", status: 503 } })
    await harness.control("POST", "/faults", { match: { path }, times: 1, action: { type: "reset" } })
    expect((await cancelLink(paymentLink.linkId)).status).toBe(503)
    await expect(cancelLink(paymentLink.linkId)).rejects.toThrow()
    expect((await payLink(paymentLink.linkId, { outcome: "approve" })).body.result).toBe("AUTHORIZED")
  })
})

describe("the state file", () => {
  it("keeps a paid link's paidByOperationId and a cancelled link's refusal across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sim-links-"))
    const stateFile = join(dir, "state.json")
    const before = new SimulatorHarness()
    const after = new SimulatorHarness()
    try {
      before.sim = await startSimulator({ port: 0, control: true, stateFile })
      const create = async () => {
        const body = { ...linkBody(), order: { orderId: before.newOrderId(), amount: "4200", currency: "EUR" } }
        const answer = await before.gateway("POST", "/orders/paybylink", { body })
        return { orderId: body.order.orderId, linkId: answer.body.paymentLink.linkId as string }
      }
      const paid = await create()
      const cancelled = await create()
      // The payment last: nothing after it writes the file again.
      await before.gateway("POST", `/paybylink/${cancelled.linkId}/cancels`)
      await before.control("POST", `/paybylink/${paid.linkId}/pay`, { outcome: "approve", awaitNotification: false })
      const paidLinks = (await before.order(paid.orderId)).body.paymentLinks
      await before.sim.close()
      after.sim = await startSimulator({ port: 0, control: true, stateFile })
      expect((await after.order(paid.orderId)).body.paymentLinks).toEqual(paidLinks)
      expect(paidLinks[0].paidByOperationId).toEqual(expect.any(String))
      const refused = await after.control("POST", `/paybylink/${cancelled.linkId}/pay`, { outcome: "approve" })
      expect(refused.body.errors[0].description).toContain("was cancelled by the merchant")
    } finally {
      await after.sim?.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

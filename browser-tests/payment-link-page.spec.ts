/** A payment link in headless Chromium: the shopper pays it on the simulator's page; a cancelled link cannot be paid. */
import { randomUUID } from "node:crypto"
import type { Browser, Page } from "playwright-core"
import { DEFAULTS, type RunningSimulator, startSimulator } from "../src/simulator"
import { launchBrowser, screenshot } from "./support/browser"
import { type MerchantSite, startMerchantSite } from "./support/merchant-site"

jest.setTimeout(60_000)

let simulator: RunningSimulator
let merchant: MerchantSite
let browser: Browser
let page: Page

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, control: true })
  merchant = await startMerchantSite()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await merchant?.close()
  await simulator?.close()
})

beforeEach(async () => {
  page = await browser.newPage()
})

afterEach(async () => {
  await page.close()
})

const headers = () => ({
  "content-type": "application/json",
  "X-API-KEY": DEFAULTS.apiKey,
  "Correlation-Id": randomUUID(),
})

interface CreatedLink {
  paymentLink: { linkId: string; link: string }
  securityToken: string
}

async function createLink(orderId: string): Promise<CreatedLink> {
  const response = await fetch(`${simulator.gatewayUrl}/orders/paybylink`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({
      order: { orderId, amount: "1575", currency: "EUR", description: "Balance of order 1042" },
      paymentSession: {
        amount: "1575",
        language: "eng",
        resultUrl: merchant.resultUrl,
        cancelUrl: merchant.cancelUrl,
        notificationUrl: merchant.notificationUrl,
      },
      expirationDate: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
    }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as CreatedLink
}

async function paymentLinksOf(orderId: string): Promise<{ linkId: string; paidByOperationId?: string }[]> {
  const response = await fetch(`${simulator.gatewayUrl}/orders/${orderId}`, { headers: headers() })
  return ((await response.json()) as { paymentLinks: { linkId: string; paidByOperationId?: string }[] }).paymentLinks
}

it("pays a link with a card, lands on resultUrl, notifies with the link's token, and the link is paid once", async () => {
  const orderId = `PL${Date.now()}`
  const { paymentLink, securityToken } = await createLink(orderId)

  await page.goto(paymentLink.link)
  await expect(page.getByTestId("amount").textContent()).resolves.toBe("15.75 EUR")
  await expect(page.content()).resolves.toContain("Balance of order 1042")
  await page.fill("#pan", "4999 3402 6197 7289")
  await page.fill("#expiry", "12/30")
  await page.fill("#cvv", "663")
  await screenshot(page, "payment-link-01-card-form")
  await Promise.all([page.waitForURL(merchant.resultUrl), page.click("#pay")])

  await fetch(`${simulator.controlUrl}/notifications/flush`, { method: "POST" })
  const notification = merchant.notifications.find((received) => received.operation.orderId === orderId)
  expect(notification).toMatchObject({
    securityToken,
    operation: { operationResult: "AUTHORIZED", paymentLinkId: paymentLink.linkId },
  })
  await expect(paymentLinksOf(orderId)).resolves.toEqual([
    expect.objectContaining({ linkId: paymentLink.linkId, paidByOperationId: notification!.operation.operationId }),
  ])

  await page.goto(paymentLink.link)
  await expect(page.content()).resolves.toContain("cannot be paid again")
})

it("shows a cancelled link as closed, with no form to pay", async () => {
  const orderId = `PC${Date.now()}`
  const { paymentLink } = await createLink(orderId)
  const cancelled = await fetch(`${simulator.gatewayUrl}/paybylink/${paymentLink.linkId}/cancels`, {
    method: "POST",
    headers: headers(),
  })
  expect(cancelled.status).toBe(200)

  const response = await page.goto(paymentLink.link)
  expect(response?.status()).toBe(410)
  await expect(page.content()).resolves.toContain("was cancelled by the merchant")
  await expect(page.locator("#pay").count()).resolves.toBe(0)
  await screenshot(page, "payment-link-02-cancelled")
})

/** The hosted payment page in headless Chromium: a 3DS challenge payment and a cancellation. */
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

async function createHostedOrder(orderId: string): Promise<{ hostedPage: string; securityToken: string }> {
  const response = await fetch(`${simulator.gatewayUrl}/orders/hpp`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-API-KEY": DEFAULTS.apiKey, "Correlation-Id": randomUUID() },
    body: JSON.stringify({
      order: { orderId, amount: "4250", currency: "EUR", description: "Espresso cups (set of 6)" },
      paymentSession: {
        amount: "4250",
        language: "eng",
        resultUrl: merchant.resultUrl,
        cancelUrl: merchant.cancelUrl,
        notificationUrl: merchant.notificationUrl,
      },
    }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { hostedPage: string; securityToken: string }
}

async function operationsOf(orderId: string): Promise<string[]> {
  const response = await fetch(`${simulator.gatewayUrl}/orders/${orderId}`, {
    headers: { "X-API-KEY": DEFAULTS.apiKey, "Correlation-Id": randomUUID() },
  })
  const body = (await response.json()) as { operations: { operationType: string; operationResult: string }[] }
  return body.operations.map((operation) => `${operation.operationType}/${operation.operationResult}`)
}

it("pays with a 3DS challenge card, lands on resultUrl, and the merchant is notified", async () => {
  const orderId = `BR${Date.now()}`
  const { hostedPage, securityToken } = await createHostedOrder(orderId)

  await page.goto(hostedPage)
  await expect(page.getByTestId("amount").textContent()).resolves.toBe("42.50 EUR")
  await expect(page.content()).resolves.toContain("Espresso cups (set of 6)")
  await page.fill("#holder", "Ada Lovelace")
  await page.fill("#pan", "4349 9401 9900 4549")
  await page.fill("#expiry", "05/30")
  await page.fill("#cvv", "396")
  await screenshot(page, "01-hosted-page-card-form")

  await Promise.all([page.waitForURL(/\/challenge\?token=/), page.click("#pay")])
  await expect(page.content()).resolves.toContain("Your bank asks you to confirm this payment.")
  await screenshot(page, "02-hosted-page-3ds-challenge")

  await Promise.all([page.waitForURL(merchant.resultUrl), page.click("#approve")])
  await expect(page.title()).resolves.toBe("Thank you for your order")
  await screenshot(page, "03-merchant-result-page")

  await fetch(`${simulator.controlUrl}/notifications/flush`, { method: "POST" })
  expect(merchant.notifications).toHaveLength(1)
  expect(merchant.notifications[0]).toMatchObject({
    securityToken,
    operation: { orderId, operationType: "AUTHORIZATION", operationResult: "AUTHORIZED", operationAmount: "4250" },
  })
  await expect(operationsOf(orderId)).resolves.toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"])
})

it("cancels and lands on cancelUrl", async () => {
  const orderId = `BC${Date.now()}`
  const { hostedPage } = await createHostedOrder(orderId)

  await page.goto(hostedPage)
  await screenshot(page, "04-hosted-page-before-cancel")
  await Promise.all([page.waitForURL(merchant.cancelUrl), page.click("#cancel")])
  await expect(page.title()).resolves.toBe("Payment cancelled")
  await screenshot(page, "05-merchant-cancel-page")
  await expect(operationsOf(orderId)).resolves.toEqual(["AUTHORIZATION/CANCELED"])

  await page.goto(hostedPage)
  await expect(page.content()).resolves.toContain("cannot be paid again")
  await screenshot(page, "06-hosted-page-closed")
})

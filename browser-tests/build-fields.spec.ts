/**
 * XPay Build in headless Chromium: a minimal merchant page written against the real SDK's
 * interface (as Nexi's own WooCommerce script and pagoPA's checkout use it) loads the simulator's
 * hfsdk.js, mounts the card fields, confirms, and its server finalizes. A frictionless card is
 * paid without leaving the page; a challenge card goes to the challenge page and back to resultUrl.
 */
import { randomUUID } from "node:crypto"
import type { Browser, Page } from "playwright-core"
import type { BuildField } from "../src/gateway/schemas"
import { DEFAULTS, type RunningSimulator, startSimulator } from "../src/simulator"
import { launchBrowser, screenshot } from "./support/browser"
import { type MerchantSite, startMerchantSite } from "./support/merchant-site"

jest.setTimeout(60_000)

let simulator: RunningSimulator
let merchant: MerchantSite
let browser: Browser
let page: Page
/** The fields of each session the merchant opened, for its checkout page. */
const sessions = new Map<string, BuildField[]>()

const gatewayHeaders = () => ({
  "content-type": "application/json",
  "X-API-KEY": DEFAULTS.apiKey,
  "Correlation-Id": randomUUID(),
})

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, control: true })
  merchant = await startMerchantSite({
    "GET /checkout": async (url) => {
      const sessionId = url.searchParams.get("session") ?? ""
      return { status: 200, contentType: "text/html; charset=utf-8", body: checkoutPage(sessionId) }
    },
    "GET /fields.css": async () => ({
      status: 200,
      contentType: "text/css",
      body: ".npg-component { color: rgb(1, 2, 3); }",
    }),
    // The merchant's server finalizes: the API key never reaches the browser.
    "POST /finalize": async (_url, sessionId) => {
      const answer = await fetch(`${simulator.gatewayUrl}/build/finalize_payment`, {
        method: "POST",
        headers: gatewayHeaders(),
        body: JSON.stringify({ sessionId }),
      })
      return { status: answer.status, contentType: "application/json", body: await answer.text() }
    },
  })
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

function checkoutPage(sessionId: string): string {
  const fields = sessions.get(sessionId) ?? []
  const containers = fields.map(({ id }) => `<label>${id}<div id="${id}"></div></label>`).join("\n")
  return `<!doctype html><html><head><title>Checkout</title>
<script src="${simulator.publicUrl}/monetaweb/resources/hfsdk.js"></script></head>
<body><form id="card-form">${containers}<button type="submit" id="pay">Pay</button></form>
<p id="outcome"></p>
<script>
  var SESSION = ${JSON.stringify(sessionId)}, FIELDS = ${JSON.stringify(fields)};
  window.buildEvents = [];
  function record(name, data) { window.buildEvents.push({ name: name, data: data }); }
  var build = new Build({
    onBuildSuccess: function (evt) { record("success", evt); },
    onBuildError: function (evt) { record("error", evt); },
    onConfirmError: function (evt) { record("confirmError", evt); },
    onAllFieldsLoaded: function () { record("allLoaded"); },
    onBuildFlowStateChange: function (evt, state) {
      record("state", state);
      if (state !== "READY_FOR_PAYMENT") return;
      fetch("/finalize", { method: "POST", body: SESSION }).then(function (r) { return r.json(); }).then(function (answer) {
        if (answer.state === "REDIRECTED_TO_EXTERNAL_DOMAIN") window.location.href = answer.url;
        else document.getElementById("outcome").textContent = answer.operation.operationResult;
      });
    },
    cssLink: window.location.origin + "/fields.css",
    defaultComponentCssClassName: "npg-component",
    defaultContainerCssClassName: "npg-container"
  });
  FIELDS.forEach(function (field) {
    var iframe = document.createElement("iframe");
    iframe.src = field.src;
    document.getElementById(field.id).appendChild(iframe);
  });
  document.getElementById("card-form").addEventListener("submit", function (event) {
    event.preventDefault();
    build.confirmData(function () { record("confirmSent"); });
  });
</script></body></html>`
}

async function openCheckout(orderId: string): Promise<{ securityToken: string }> {
  const response = await fetch(`${simulator.gatewayUrl}/orders/build`, {
    method: "POST",
    headers: gatewayHeaders(),
    body: JSON.stringify({
      merchantUrl: merchant.origin,
      order: { orderId, amount: "4250", currency: "EUR" },
      paymentSession: {
        actionType: "PAY",
        amount: "4250",
        language: "eng",
        resultUrl: merchant.resultUrl,
        cancelUrl: merchant.cancelUrl,
        notificationUrl: merchant.notificationUrl,
      },
    }),
  })
  expect(response.status).toBe(200)
  const { sessionId, securityToken, fields } = (await response.json()) as {
    sessionId: string
    securityToken: string
    fields: BuildField[]
  }
  sessions.set(sessionId, fields)
  await page.goto(`${merchant.origin}/checkout?session=${encodeURIComponent(sessionId)}`)
  await page.waitForFunction(() => (window as unknown as Events).buildEvents.some((e) => e.name === "allLoaded"))
  return { securityToken }
}

interface Events {
  buildEvents: { name: string; data?: { id?: string; errorCode?: string } }[]
}

const events = () => page.evaluate(() => (window as unknown as Events).buildEvents)

async function typeCard(card: { pan: string; expiry: string; cvv: string }): Promise<void> {
  const values = {
    CARD_NUMBER: card.pan,
    EXPIRATION_DATE: card.expiry,
    SECURITY_CODE: card.cvv,
    CARDHOLDER_NAME: "Ada",
  }
  for (const [id, value] of Object.entries(values)) {
    const input = page.frameLocator(`#${id} iframe`).locator("#field")
    await input.fill(value)
    await input.blur()
  }
  await page.waitForFunction(
    () =>
      new Set((window as unknown as Events).buildEvents.filter((e) => e.name === "success").map((e) => e.data?.id))
        .size === 4,
  )
}

async function operationsOf(orderId: string): Promise<string[]> {
  const response = await fetch(`${simulator.gatewayUrl}/orders/${orderId}`, { headers: gatewayHeaders() })
  const body = (await response.json()) as { operations: { operationType: string; operationResult: string }[] }
  return body.operations.map((operation) => `${operation.operationType}/${operation.operationResult}`)
}

it("pays a frictionless card without leaving the page; the fields take the page's CSS and report each field", async () => {
  const orderId = `BF${Date.now()}`
  const { securityToken } = await openCheckout(orderId)

  const number = page.frameLocator("#CARD_NUMBER iframe").locator("#field")
  await number.fill("4111 1111 1111 1112")
  await number.blur()
  await page.waitForFunction(() => (window as unknown as Events).buildEvents.some((e) => e.name === "error"))
  expect((await events()).find((e) => e.name === "error")?.data).toMatchObject({
    id: "CARD_NUMBER",
    errorCode: "HF0004",
  })
  await expect(number.getAttribute("class")).resolves.toBe("npg-component")
  await expect(number.evaluate((input) => getComputedStyle(input).color)).resolves.toBe("rgb(1, 2, 3)")

  await typeCard({ pan: "4999 3402 6197 7289", expiry: "12/30", cvv: "663" })
  await screenshot(page, "build-01-fields-filled")
  await page.click("#pay")
  await page.waitForFunction(() => document.getElementById("outcome")?.textContent !== "")
  await expect(page.locator("#outcome").textContent()).resolves.toBe("AUTHORIZED")
  await screenshot(page, "build-02-paid-in-page")

  const names = (await events()).map((e) => e.name)
  expect(names).toEqual(expect.arrayContaining(["confirmSent", "state"]))
  expect(new URL(page.url()).pathname).toBe("/checkout")
  await expect(operationsOf(orderId)).resolves.toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"])
  await fetch(`${simulator.controlUrl}/notifications/flush`, { method: "POST" })
  expect(merchant.notifications.at(-1)).toMatchObject({
    securityToken,
    operation: { orderId, operationResult: "AUTHORIZED", operationAmount: "4250" },
  })
})

it("pays a challenge card: the challenge page, then back to resultUrl", async () => {
  const orderId = `BC${Date.now()}`
  await openCheckout(orderId)
  await typeCard({ pan: "4349 9401 9900 4549", expiry: "05/30", cvv: "396" })
  await Promise.all([page.waitForURL(/\/challenge\?token=/), page.click("#pay")])
  await expect(page.content()).resolves.toContain("Your bank asks you to confirm this payment.")
  await screenshot(page, "build-03-challenge")
  await Promise.all([page.waitForURL(merchant.resultUrl), page.click("#approve")])
  await expect(page.title()).resolves.toBe("Thank you for your order")
  await expect(operationsOf(orderId)).resolves.toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"])
})

/**
 * A shopper in headless Chromium buys through the demo storefront of `npm run demo`: a real
 * Medusa store on the embedded PostgreSQL, the gateway simulator's hosted payment page and
 * phone page, the storefront page. Every step is saved as a screenshot under
 * browser-tests/screenshots/<test>/.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import type { RunningDemo } from "../scripts/demo/start-demo"
import { launchBrowser } from "./support/browser"
import { type DemoForTests, demoForTests } from "./support/demo-shop"
import { stepScreenshots } from "./support/step-screenshots"

jest.setTimeout(300_000)

const CHALLENGE_CARD = { pan: "4349 9401 9900 4549", expiry: "12/30", cvv: "396" }
const DECLINED_CARD = { pan: "5515 9318 5585 8729", expiry: "12/30", cvv: "123" }
const APPROVED_CARD = { pan: "4999 3402 6197 7289", expiry: "12/30", cvv: "663" }
const CARD_PROVIDER = "pp_nexi_nexi"
const MOBILE_PROVIDER = "pp_nexi-apm-psp-b_nexi"
/** Not one of the simulator's deterministic endings: the payment waits for the phone page. */
const MOBILE_NUMBER = "+39 333 123 4567"

let fixture: DemoForTests
let demo: RunningDemo
let browser: Browser
let context: BrowserContext
let page: Page
const ordersPlaced: string[] = []

beforeAll(async () => {
  fixture = demoForTests()
  browser = await launchBrowser()
  demo = await fixture.start()
})

afterAll(async () => {
  await browser?.close()
  await fixture?.cleanUp()
})

// A context per test: its own localStorage, so every shopper starts with no cart.
beforeEach(async () => {
  context = await browser.newContext({ locale: "en-GB" })
  page = await context.newPage()
})

afterEach(async () => {
  await context?.close()
})

/** The text of an element, with Intl's no-break spaces ("EUR\u00a024.50") read as spaces. */
async function textOf(target: { textContent(): Promise<string | null> }): Promise<string> {
  return ((await target.textContent()) ?? "").replace(/\u00a0/g, " ")
}

async function addToCart(handle: string, regionName: string) {
  await page.goto(demo.urls.storefront)
  await page.getByTestId("region").selectOption({ label: regionName })
  await page.waitForSelector(`[data-testid=product][data-handle=${handle}]`)
  // The region is chosen by reloading the shop; wait until the prices are the region's.
  const currency = demo.regions.find((region) => region.name === regionName)!.currency_code.toUpperCase()
  await page.waitForFunction(
    ([wanted, code]) =>
      document.querySelector(`[data-handle=${wanted}] [data-testid=price]`)?.textContent?.startsWith(code),
    [handle, currency] as const,
  )
}

async function checkoutToPayment(shot: (page: Page, step: string) => Promise<void>) {
  await page.getByTestId("to-address").click()
  await page.waitForSelector("[data-testid=address-form]")
  await shot(page, "address")
  await Promise.all([page.waitForURL(/step=payment/), page.getByTestId("to-payment").click()])
  await page.waitForSelector("[data-testid=payment-method]")
}

async function payByCard(card: typeof CHALLENGE_CARD) {
  await page.fill("#pan", card.pan)
  await page.fill("#expiry", card.expiry)
  await page.fill("#cvv", card.cvv)
  await page.fill("#holder", "Giulia Rossi")
}

async function chooseCardAndGoToHostedPage() {
  await page.locator(`[data-provider="${CARD_PROVIDER}"] input`).check()
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(demo.urls.simulator)),
    page.getByTestId("pay").click(),
  ])
}

async function placedOrderId(): Promise<string> {
  const orderId = new URL(page.url()).searchParams.get("id")
  expect(orderId).toMatch(/^order_/)
  ordersPlaced.push(orderId!)
  return orderId!
}

it("buys with a 3-D Secure challenge card and sees the order", async () => {
  const shot = stepScreenshots("demo-3ds-card")
  await addToCart("espresso-cups", "Europe (EUR)")
  await expect(textOf(page.locator("[data-handle=espresso-cups] [data-testid=price]"))).resolves.toBe("EUR 24.50")
  await shot(page, "shop")

  await page.locator("[data-handle=espresso-cups] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await page.waitForSelector("[data-testid=cart-line]")
  await shot(page, "cart")
  await checkoutToPayment(shot)
  // 24.50 EUR plus Italy's 22% VAT, from Medusa's own totals.
  await expect(textOf(page.getByTestId("cart-total"))).resolves.toBe("EUR 29.89")
  await shot(page, "payment-methods")

  await chooseCardAndGoToHostedPage()
  await expect(textOf(page.getByTestId("amount"))).resolves.toBe("29.89 EUR")
  // The browser's Accept-Language (en-GB) wins over the Italian address.
  await expect(page.locator("html").getAttribute("lang")).resolves.toBe("en")
  await payByCard(CHALLENGE_CARD)
  await shot(page, "hosted-page")
  await Promise.all([page.waitForURL(/\/challenge\?token=/), page.click("#pay")])
  await shot(page, "3ds-challenge")

  await Promise.all([page.waitForURL(/\/order\?id=/, { timeout: 60_000 }), page.click("#approve")])
  await page.waitForSelector("[data-testid=order-confirmation]")
  await shot(page, "order-confirmation")
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("EUR 29.89")
  await expect(textOf(page.getByTestId("payment-status"))).resolves.toBe("Payment: authorized")

  const orderId = await placedOrderId()
  const order = await fetch(`${demo.urls.backend}/store/orders/${orderId}`, {
    headers: { "x-publishable-api-key": demo.publishableKey },
  })
  expect(((await order.json()) as { order: { total: number; currency_code: string } }).order).toMatchObject({
    total: 29.89,
    currency_code: "eur",
  })
})

it("pays by card in the gateway's fields inside the shop's page, never leaving it (XPay Build, through the kit)", async () => {
  const shot = stepScreenshots("demo-card-fields")
  const visited: string[] = []
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url())
  })
  await addToCart("espresso-cups", "Europe (EUR)")
  await page.locator("[data-handle=espresso-cups] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await checkoutToPayment(shot)
  await page.locator("[data-testid=card-fields-method] input").check()
  await Promise.all([page.waitForURL(/step=card&/), page.getByTestId("pay").click()])
  const payment = page.getByTestId("card-payment")
  await page.locator('[data-testid=card-payment][data-state="ready"]').waitFor()
  // Loaded with the integrity the demo read from the gateway, under the page's Content Security Policy.
  await expect(page.locator('script[src$="/hfsdk.js"]').getAttribute("integrity")).resolves.toMatch(/^sha384-/)
  for (const [id, value] of Object.entries({
    CARD_NUMBER: APPROVED_CARD.pan,
    EXPIRATION_DATE: APPROVED_CARD.expiry,
    SECURITY_CODE: APPROVED_CARD.cvv,
    CARDHOLDER_NAME: "Giulia Rossi",
  })) {
    const input = page.frameLocator(`#${id} iframe`).locator("#field")
    await input.fill(value)
    await input.blur()
  }
  await expect(payment.getAttribute("data-state")).resolves.toBe("ready")
  await shot(page, "card-fields")
  await Promise.all([page.waitForURL(/\/order\?id=/, { timeout: 60_000 }), page.getByTestId("pay").click()])
  await page.waitForSelector("[data-testid=order-confirmation]")
  await shot(page, "order-confirmation")
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("EUR 29.89")
  await placedOrderId()
  expect(visited.filter((url) => url.startsWith(demo.urls.simulator))).toEqual([])
})

it("shows a declined card's reason, and a retry with another card succeeds", async () => {
  const shot = stepScreenshots("demo-declined-then-retry")
  await addToCart("moka-pot", "Japan (JPY)")
  await expect(textOf(page.locator("[data-handle=moka-pot] [data-testid=price]"))).resolves.toBe("JPY 6,200")
  await shot(page, "shop-in-yen")
  await page.locator("[data-handle=moka-pot] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await checkoutToPayment(shot)
  // JPY has no minor unit: 6,200 plus Japan's 10% VAT, no decimals anywhere.
  await expect(textOf(page.getByTestId("cart-total"))).resolves.toBe("JPY 6,820")

  await chooseCardAndGoToHostedPage()
  await expect(textOf(page.getByTestId("amount"))).resolves.toBe("6820 JPY")
  await payByCard(DECLINED_CARD)
  await page.click("#pay")
  await page.waitForSelector("[data-testid=outcome]")
  await shot(page, "hosted-page-declined")

  await Promise.all([page.waitForURL(/\/checkout\/nexi\/result/), page.click("#back")])
  const reason = page.getByTestId("decline-reason")
  await reason.waitFor({ timeout: 60_000 })
  await expect(textOf(reason)).resolves.toMatch(/^The payment did not go through: .*declined/i)
  await shot(page, "decline-reason")

  await Promise.all([page.waitForURL(/step=payment/), page.getByTestId("retry").click()])
  await page.waitForSelector("[data-testid=payment-method]")
  await expect(textOf(page.getByTestId("decline-reason"))).resolves.toMatch(
    /declined.*Choose a way to pay to try again/i,
  )
  await shot(page, "payment-step-after-decline")

  await chooseCardAndGoToHostedPage()
  await payByCard(APPROVED_CARD)
  await Promise.all([page.waitForURL(/\/order\?id=/, { timeout: 60_000 }), page.click("#pay")])
  await page.waitForSelector("[data-testid=order-confirmation]")
  await shot(page, "order-confirmation")
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("JPY 6,820")
  await placedOrderId()
})

it("pays with Google Pay, chosen in the checkout, on the hosted page's wallet button and sees the order", async () => {
  const shot = stepScreenshots("demo-google-pay")
  await addToCart("coffee-beans", "Europe (EUR)")
  await page.locator("[data-handle=coffee-beans] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await checkoutToPayment(shot)

  await page.locator("[data-testid=wallet-method][data-wallet=GOOGLEPAY] input").check()
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(demo.urls.simulator)),
    page.getByTestId("pay").click(),
  ])
  // The gateway's page of a Google Pay session: its button, no card form.
  await expect(textOf(page.locator("#wallet-pay"))).resolves.toBe("Pay with Google Pay")
  await expect(page.locator("#pan").count()).resolves.toBe(0)
  await shot(page, "google-pay-button")

  await Promise.all([page.waitForURL(/\/order\?id=/, { timeout: 60_000 }), page.click("#wallet-pay")])
  await page.waitForSelector("[data-testid=order-confirmation]")
  await shot(page, "order-confirmation")
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("EUR 24.39")
  await expect(textOf(page.getByTestId("payment-status"))).resolves.toBe("Payment: authorized")
  await placedOrderId()
})

it("shows a shopper in Italy whose request names no language the hosted page in Italian", async () => {
  const shot = stepScreenshots("demo-hosted-page-in-italian")
  // As Node's fetch in a storefront's server action sends it: `*` names no language, so the
  // cart's Italian shipping address decides (the browser itself would say en-GB).
  await page.route(`${demo.urls.backend}/store/payment-collections/**`, (route) =>
    route.continue({ headers: { ...route.request().headers(), "accept-language": "*" } }),
  )
  await addToCart("espresso-cups", "Europe (EUR)")
  await page.locator("[data-handle=espresso-cups] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await checkoutToPayment(shot)

  await chooseCardAndGoToHostedPage()
  await expect(page.locator("html").getAttribute("lang")).resolves.toBe("it")
  await expect(page.locator("html").getAttribute("data-language")).resolves.toBe("ita")
  await expect(textOf(page.locator("label[for=pan]"))).resolves.toBe("Numero della carta")
  await expect(textOf(page.locator("#pay"))).resolves.toBe("Paga 29.89 EUR")
  await shot(page, "hosted-page-in-italian")
})

it("goes back to the payment step when the shopper cancels on the hosted page", async () => {
  const shot = stepScreenshots("demo-cancel-on-hosted-page")
  await addToCart("coffee-beans", "Europe (EUR)")
  await page.locator("[data-handle=coffee-beans] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await checkoutToPayment(shot)
  await chooseCardAndGoToHostedPage()
  await shot(page, "hosted-page")

  await Promise.all([page.waitForURL(/\/checkout\?step=payment&cart_id=cart_/), page.click("#cancel")])
  const notice = page.getByTestId("decline-reason")
  await notice.waitFor()
  await expect(textOf(notice)).resolves.toMatch(/^The payment was cancelled/)
  await expect(page.locator("[data-testid=payment-method]").count()).resolves.toBeGreaterThan(1)
  await shot(page, "back-on-payment-step")
})

it("completes a mobile payment approved on the simulator's phone page", async () => {
  const shot = stepScreenshots("demo-mobile-payment")
  await addToCart("coffee-beans", "Europe (EUR)")
  await page.locator("[data-handle=coffee-beans] [data-testid=add-to-cart]").click()
  await page.waitForURL(/step=cart/)
  await checkoutToPayment(shot)

  await page.locator(`[data-provider="${MOBILE_PROVIDER}"] input`).check()
  await expect(page.getByTestId("mobile-fields").isVisible()).resolves.toBe(true)
  await page.fill("#consumer_id", MOBILE_NUMBER)
  await shot(page, "mobile-number")
  await Promise.all([page.waitForURL(/\/checkout\/mobile\?/), page.getByTestId("pay").click()])
  await page.getByTestId("waiting").waitFor()
  // 19.99 EUR plus 22% VAT is 24.3878, which Medusa rounds to 24.39.
  await expect(textOf(page.getByTestId("waiting"))).resolves.toContain("EUR 24.39")
  await shot(page, "approve-in-your-app")

  const phoneUrl = await page.getByTestId("phone-link").getAttribute("href")
  expect(phoneUrl).toMatch(new RegExp(`^${demo.urls.simulator}/apm/phone/\\d+$`))
  const phone = await context.newPage()
  await phone.setViewportSize({ width: 420, height: 760 })
  await phone.goto(phoneUrl!)
  await expect(textOf(phone.getByTestId("amount"))).resolves.toBe("24.39 EUR")
  await shot(phone, "phone-page")
  await phone.getByRole("button", { name: "Approve" }).click()
  await expect(textOf(phone.getByTestId("notice"))).resolves.toMatch(/approved/i)
  await shot(phone, "phone-approved")

  await page.waitForURL(/\/order\?id=/, { timeout: 60_000 })
  await page.waitForSelector("[data-testid=order-confirmation]")
  await shot(page, "order-confirmation")
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("EUR 24.39")
  // The scheme captures when the shopper approves.
  await expect(textOf(page.getByTestId("payment-status"))).resolves.toBe("Payment: captured")
  await placedOrderId()
})

it("reuses the seeded store and its orders on a second start of the same data directory", async () => {
  const first = demo
  demo = await fixture.start()
  expect(demo.migrated).toBe(false)
  expect(demo.timings.seed).toBeUndefined()
  expect(demo.publishableKey).toBe(first.publishableKey)
  expect(demo.regions.map((region) => region.id)).toEqual(first.regions.map((region) => region.id))
  expect(ordersPlaced.length).toBeGreaterThan(0)
  for (const orderId of ordersPlaced) {
    const answer = await fetch(`${demo.urls.backend}/store/orders/${orderId}`, {
      headers: { "x-publishable-api-key": demo.publishableKey },
    })
    expect(answer.status).toBe(200)
  }
  await page.goto(demo.urls.storefront)
  await page.waitForSelector("[data-testid=product]")
  await expect(page.locator("[data-testid=product]").count()).resolves.toBe(3)
})

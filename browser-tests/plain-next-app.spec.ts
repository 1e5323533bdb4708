/**
 * A plain Next.js 15 app (browser-tests/plain-next-app: App Router, no path aliases, no
 * middleware, no country segment) that takes Nexi cards only, its Nexi code exactly the section
 * of docs/storefront.md for such an app (storefront/src/__tests__/docs-snippets.spec.ts), in
 * headless Chromium against the demo's store (real Medusa with the plugin, the gateway
 * simulator). The card path of the starter-shaped storefront's tests: a card approved on the
 * hosted page places the order; a declined one, then "Try again", pays; so does paying again
 * after a cancel on the hosted page, back without the SameSite=strict cookies. And a card-only
 * shop built from the doc ships no mobile payment code to the browser.
 * Screenshots: browser-tests/screenshots/plain-<test>/.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchBrowser } from "./support/browser"
import { textOf } from "./support/demo-storefront"
import { APPROVED_CARD, allOrderIds, DECLINED_CARD, fillCard } from "./support/hosted-page-shopper"
import { type AdminCall, adminApi, SHIPPING_OPTION, type StarterShop, startStarterShop } from "./support/starter-shop"
import { buildDirOf } from "./support/starter-storefront-server"
import { stepScreenshots } from "./support/step-screenshots"

jest.setTimeout(600_000)

const RESULT_PAGE = /\/checkout\/nexi\/result\?cart_id=cart_/
const CANCEL_PAGE = /\/checkout\?step=payment&cart_id=cart_/
const CONFIRMED = /\/order\/(order_[A-Z0-9]+)\/confirmed$/

let shop: StarterShop
let admin: AdminCall
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  shop = await startStarterShop({ app: "plain" })
  admin = await adminApi(shop.demo)
  // What the app adds to a run: its build (0 when the cached one served; the install is the starter's) and its start.
  process.stdout.write(`plain Next.js app: build ${shop.timings.build} ms, start ${shop.timings.start} ms\n`)
})

afterAll(async () => {
  await browser?.close()
  await shop?.cleanUp()
})

// A context per test: its own cookies, so every shopper starts with no cart.
beforeEach(async () => {
  context = await browser.newContext({ locale: "en-GB" })
  page = await context.newPage()
})

afterEach(async () => {
  await context?.close()
})

type Shot = (page: Page, step: string) => Promise<void>

/** A product into the cart, then the app's checkout form, to the payment step; answers the cart total shown. */
async function checkoutToPayment(handle: string, shot: Shot): Promise<string> {
  await page.goto(shop.storefrontUrl)
  await Promise.all([
    page.waitForURL(/\/checkout$/),
    page.locator(`[data-handle=${handle}] [data-testid=add-to-cart]`).click(),
  ])
  await page.fill("#email", "giulia.rossi@example.com")
  await page.fill("#first_name", "Giulia")
  await page.fill("#last_name", "Rossi")
  await page.fill("#address_1", "Via Roma 1")
  await page.fill("#postal_code", "20121")
  await page.fill("#city", "Milano")
  await shot(page, "details")
  await Promise.all([page.waitForURL(/\/checkout\?step=payment$/), page.getByTestId("to-payment").click()])
  const total = await textOf(page.getByTestId("cart-total"))
  await shot(page, "payment")
  return total
}

/** "Pay with card"; answers the hosted page's address, which is a new one, open for a card. */
async function toHostedPage(before?: string): Promise<string> {
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(shop.demo.urls.simulator)),
    page.getByRole("button", { name: "Pay with card" }).click(),
  ])
  expect(page.url()).not.toBe(before)
  await page.locator("#pan").waitFor()
  return page.url()
}

/** Pays on the hosted page; answers the order id of the app's order page the result page sent the shopper to. */
async function payAndConfirm(total: string, shot: Shot): Promise<string> {
  await expect(textOf(page.getByTestId("amount"))).resolves.toBe(`${total.replace(/^EUR /, "")} EUR`)
  await fillCard(page, APPROVED_CARD)
  await Promise.all([page.waitForURL(RESULT_PAGE), page.click("#pay")])
  await page.waitForURL(CONFIRMED, { timeout: 60_000 })
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await shot(page, "order-confirmed")
  return CONFIRMED.exec(page.url())![1]
}

it("ships no mobile payment code to the browser: a card-only shop leaves it all out", () => {
  const chunks = join(buildDirOf("plain"), "static", "chunks")
  const bundle = readdirSync(chunks, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(join(chunks, file), "utf8"))
    .join("\n")
  // The scan reads the app's client code: the pay button is there.
  expect(bundle).toContain("Pay with card")
  // The kit's mobile session data, the doc's mobile choice and the mobile wait page.
  for (const mobile of [
    "consumer_id",
    "nexi-mobile-choice",
    "/checkout/nexi/mobile",
    "Approve the payment in your app",
  ]) {
    expect({ mobile, found: bundle.includes(mobile) }).toEqual({ mobile, found: false })
  }
})

it("pays by card on the hosted page and lands on the order placed page", async () => {
  const shot = stepScreenshots("plain-card-approved")
  const before = await allOrderIds(admin)
  const total = await checkoutToPayment("espresso-cups", shot)
  // The cart cookie is SameSite=strict, as the doc's: the way back from the gateway comes without it.
  const cartCookie = (await context.cookies()).find((cookie) => cookie.name === "_medusa_cart_id")
  expect(cartCookie).toMatchObject({ sameSite: "Strict", httpOnly: true })
  await toHostedPage()
  await shot(page, "hosted-page")
  const orderId = await payAndConfirm(total, shot)

  const { order } = await admin<{ order: { shipping_methods: Array<{ name: string }> } }>(
    "GET",
    `/admin/orders/${orderId}?fields=*shipping_methods`,
  )
  expect(order.shipping_methods.map((method) => method.name)).toEqual([SHIPPING_OPTION])
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
  // The placed order's cart is forgotten: the checkout is empty again.
  await page.goto(`${shop.storefrontUrl}/checkout`)
  await page.getByTestId("empty-cart").waitFor()
})

it("shows a declined card's reason, and Try again pays with another card", async () => {
  const shot = stepScreenshots("plain-declined-then-retried")
  const before = await allOrderIds(admin)
  const total = await checkoutToPayment("moka-pot", shot)
  const declinedPage = await toHostedPage()
  await fillCard(page, DECLINED_CARD)
  await page.click("#pay")
  await page.getByTestId("outcome").waitFor()
  await Promise.all([page.waitForURL(RESULT_PAGE), page.click("#back")])
  await page.getByText("Payment not completed").waitFor({ timeout: 60_000 })
  await expect(textOf(page.getByTestId("failure-reason"))).resolves.toMatch(/declined/i)
  await shot(page, "result-page-declined")

  await Promise.all([page.waitForURL(/\/checkout\?step=payment$/), page.getByText("Try again").click()])
  // The same cart: its total is the one the shopper saw before.
  await expect(textOf(page.getByTestId("cart-total"))).resolves.toBe(total)
  await toHostedPage(declinedPage)
  const orderId = await payAndConfirm(total, shot)
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

it("goes back to the payment step with the cart after a cancel on the hosted page, and paying again pays", async () => {
  const shot = stepScreenshots("plain-cancelled")
  const before = await allOrderIds(admin)
  const total = await checkoutToPayment("coffee-beans", shot)
  const cancelledPage = await toHostedPage()
  const arrival = page.waitForRequest((request) => request.isNavigationRequest() && CANCEL_PAGE.test(request.url()))
  await Promise.all([page.waitForURL(CANCEL_PAGE), page.click("#cancel")])
  // That navigation came from the gateway's site without the SameSite=strict cookies; the page finds the cart anyway.
  expect((await (await arrival).allHeaders()).cookie ?? "").not.toContain("_medusa_cart_id")
  await expect(textOf(page.getByTestId("cart-total"))).resolves.toBe(total)
  await shot(page, "payment-step-after-cancel")
  await toHostedPage(cancelledPage)
  const orderId = await payAndConfirm(total, shot)
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

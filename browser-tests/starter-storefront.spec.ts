/**
 * The starter-shaped storefront (browser-tests/starter-storefront: Next.js 15, React 19, the
 * js-sdk and the storefront kit, as docs/storefront.md shows them) in headless Chromium, against
 * the demo's store (real Medusa with the plugin, the gateway simulator). The shopper walks the
 * starters' checkout: address, delivery (a shipping method chosen on the page), payment,
 * review, the hosted page, back to the result page through the country-code middleware with
 * the SameSite=strict cookies left behind, and the order's confirmation; and a payment link's
 * customer back on the starter's page for links. The storefront caches the cart as the starters
 * do, so a retry after a decline or a cancel shows whether the cached cart was revalidated and a
 * new session started.
 * Screenshots: browser-tests/screenshots/starter-<test>/.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { ADDRESS } from "../integration-tests/support/store"
import { launchBrowser } from "./support/browser"
import { textOf } from "./support/demo-storefront"
import { APPROVED_CARD, allOrderIds, CHALLENGE_CARD, DECLINED_CARD, fillCard } from "./support/hosted-page-shopper"
import {
  CARD_PROVIDER,
  checkoutToPayment,
  chooseCardAndReview,
  confirmedOrderId,
  RESULT_PAGE,
} from "./support/starter-checkout"
import { type AdminCall, adminApi, SHIPPING_OPTION, type StarterShop, startStarterShop } from "./support/starter-shop"
import { stepScreenshots } from "./support/step-screenshots"

jest.setTimeout(600_000)

const MOBILE_PROVIDER = "pp_nexi-apm-psp-b_nexi"
/** Not one of the simulator's deterministic endings: the payment waits for the phone page. */
const MOBILE_NUMBER = "+39 333 123 4567"

let shop: StarterShop
let admin: AdminCall
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  shop = await startStarterShop()
  admin = await adminApi(shop.demo)
  // What the storefront adds to a run: its install and build (0 when the cached build served) and its start.
  process.stdout.write(`starter storefront: build ${shop.timings.build} ms, start ${shop.timings.start} ms\n`)
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

/** "Pay with card" on the review step; answers the hosted page's address. */
async function toHostedPage(): Promise<string> {
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(shop.demo.urls.simulator)),
    page.getByRole("button", { name: "Pay with card" }).click(),
  ])
  return page.url()
}

/** The hosted page of a retry: a new one, open for a card (a finished page answers 409, without the form). */
async function toNewHostedPage(finished: string): Promise<void> {
  expect(await toHostedPage()).not.toBe(finished)
  await page.locator("#pan").waitFor()
}

/** The simulator's control API (notification faults, what was notified). */
async function simulator<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${shop.demo.urls.simulatorControl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`)
  return (await answer.json()) as T
}

interface SentNotification {
  url: string
  status?: number
  error?: string
}

const sentNotifications = async () =>
  (await simulator<{ notifications: SentNotification[] }>("GET", "/notifications")).notifications

async function cartIdFromCookie(): Promise<string> {
  return (await context.cookies()).find((cookie) => cookie.name === "_medusa_cart_id")!.value
}

const cartIdOf = (url: string) => new URL(url).searchParams.get("cart_id")!

async function storeOrder(orderId: string) {
  const answer = await fetch(`${shop.demo.urls.backend}/store/orders/${orderId}?fields=+total,*shipping_methods`, {
    headers: { "x-publishable-api-key": shop.demo.publishableKey },
  })
  expect(answer.status).toBe(200)
  return ((await answer.json()) as { order: any }).order
}

it("pays by card on the hosted page, with a shipping method chosen on the delivery step", async () => {
  const shot = stepScreenshots("starter-card-approved")
  const total = await checkoutToPayment(page, shop, "espresso-cups", shot)
  // Every provider the store enables has its title from the starter's paymentInfoMap, none its raw id.
  const titles = await page.getByTestId("payment-method").allTextContents()
  expect(titles.length).toBeGreaterThan(1)
  expect(titles.filter((title) => title.includes("pp_"))).toEqual([])
  await chooseCardAndReview(page, shot)
  await shot(page, "review")
  // The cart and customer cookies are the starters' SameSite=strict ones.
  const cartCookie = (await context.cookies()).find((cookie) => cookie.name === "_medusa_cart_id")
  expect(cartCookie).toMatchObject({ sameSite: "Strict", httpOnly: true })

  await toHostedPage()
  // The hosted page charges what the starter showed: Medusa's total, shipping and VAT included.
  await expect(textOf(page.getByTestId("amount"))).resolves.toBe(`${total.replace(/^EUR /, "")} EUR`)
  await fillCard(page, APPROVED_CARD)
  await shot(page, "hosted-page")
  const resultPage = page.waitForURL(/\/it\/checkout\/nexi\/result\?cart_id=cart_/)
  await page.click("#pay")
  await resultPage
  const orderId = await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await expect(textOf(page.getByTestId("order-payment"))).resolves.toBe("Card (Nexi)")
  await shot(page, "order-confirmed")

  const order = await storeOrder(orderId)
  expect(order.shipping_methods.map((method: { name: string }) => method.name)).toEqual([SHIPPING_OPTION])
  // The placed order's cart is forgotten: the cart page is empty again.
  await page.goto(`${shop.storefrontUrl}/it/cart`)
  await page.getByTestId("empty-cart").waitFor()
})

it("shows a declined card's reason on the result page, and a retry with another card pays", async () => {
  const shot = stepScreenshots("starter-declined-then-retried")
  const before = await allOrderIds(admin)
  const total = await checkoutToPayment(page, shop, "moka-pot", shot)
  await chooseCardAndReview(page, shot)
  const declinedPage = await toHostedPage()
  await fillCard(page, DECLINED_CARD)
  await page.click("#pay")
  await page.getByTestId("outcome").waitFor()
  await shot(page, "hosted-page-declined")
  await Promise.all([page.waitForURL(RESULT_PAGE), page.click("#back")])
  await page.getByText("Payment not completed").waitFor({ timeout: 60_000 })
  await expect(textOf(page.getByTestId("text"))).resolves.toMatch(/declined/i)
  await shot(page, "result-page-declined")

  await Promise.all([page.waitForURL(/\/it\/checkout\?step=payment$/), page.getByText("Try again").click()])
  await page.getByTestId("payment-method").first().waitFor()
  // The same cart: its total is the one the shopper saw before.
  await expect(textOf(page.getByTestId("cart-total"))).resolves.toBe(total)
  await chooseCardAndReview(page, shot)
  await toNewHostedPage(declinedPage)
  await fillCard(page, APPROVED_CARD)
  await page.click("#pay")
  const orderId = await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await shot(page, "order-confirmed")
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

it("goes back to the payment step with the cart when the shopper cancels on the hosted page, and a retry pays", async () => {
  const shot = stepScreenshots("starter-cancelled")
  const before = await allOrderIds(admin)
  const total = await checkoutToPayment(page, shop, "coffee-beans", shot)
  await chooseCardAndReview(page, shot)
  const cancelledPage = await toHostedPage()
  await shot(page, "hosted-page")
  // The cancelUrl has no country code: the middleware adds it and keeps the query string.
  const arrival = page.waitForRequest(
    (request) => request.isNavigationRequest() && /\/it\/checkout\?step=payment&cart_id=cart_/.test(request.url()),
  )
  await Promise.all([page.waitForURL(/\/it\/checkout\?step=payment&cart_id=cart_/), page.click("#cancel")])
  // That navigation came from the gateway's site without the SameSite=strict cookies; the page finds the cart anyway.
  expect((await (await arrival).allHeaders()).cookie ?? "").not.toContain("_medusa_cart_id")
  await page.getByTestId("payment-method").first().waitFor()
  await expect(textOf(page.getByTestId("cart-total"))).resolves.toBe(total)
  await shot(page, "payment-step-after-cancel")
  await chooseCardAndReview(page, shot)
  await toNewHostedPage(cancelledPage)
  await fillCard(page, APPROVED_CARD)
  await page.click("#pay")
  const orderId = await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

it("pays with a 3-D Secure challenge", async () => {
  const shot = stepScreenshots("starter-3ds-challenge")
  const total = await checkoutToPayment(page, shop, "espresso-cups", shot)
  await chooseCardAndReview(page, shot)
  await toHostedPage()
  await fillCard(page, CHALLENGE_CARD)
  await Promise.all([page.waitForURL(/\/challenge\?token=/), page.click("#pay")])
  await shot(page, "3ds-challenge")
  await Promise.all([page.waitForURL(RESULT_PAGE), page.click("#approve")])
  await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await shot(page, "order-confirmed")
})

describe("the shopper back on the result page", () => {
  afterEach(async () => {
    await simulator("DELETE", "/faults/notifications")
  })

  it("before the notification: the return places the order, the late notification adds none", async () => {
    const shot = stepScreenshots("starter-back-before-notification")
    const before = await allOrderIds(admin)
    await checkoutToPayment(page, shop, "espresso-cups", shot)
    await chooseCardAndReview(page, shot)
    await toHostedPage()
    // Held until two are collected: this payment's notification waits.
    await simulator("POST", "/faults/notifications", { reverseBatch: 2 })
    const notifiedBefore = (await sentNotifications()).length
    await fillCard(page, APPROVED_CARD)
    await page.click("#pay")
    const orderId = await confirmedOrderId(page)
    await shot(page, "order-confirmed")
    expect(await sentNotifications()).toHaveLength(notifiedBefore)

    await simulator("POST", "/notifications/flush")
    const late = (await sentNotifications()).slice(notifiedBefore)
    expect(late.map((sent) => sent.status)).toEqual([200])
    expect(await allOrderIds(admin)).toEqual([orderId, ...before])
  })

  it("after the notification: the order the notification placed is the one shown", async () => {
    const shot = stepScreenshots("starter-back-after-notification")
    const before = await allOrderIds(admin)
    await checkoutToPayment(page, shop, "moka-pot", shot)
    await chooseCardAndReview(page, shot)
    await toHostedPage()
    const notifiedBefore = (await sentNotifications()).length
    // The browser's way back waits until the notification was answered and the cart is an order.
    let completedByNotification: string | undefined
    await page.route("**/checkout/nexi/result?**", async (route) => {
      const cartId = cartIdOf(route.request().url())
      for (let tries = 0; tries < 120 && !completedByNotification; tries += 1) {
        const notified = (await sentNotifications()).slice(notifiedBefore)
        const orders = await allOrderIds(admin)
        if (notified.some((sent) => sent.status === 200) && orders.length > before.length) {
          completedByNotification = orders[0]
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      expect(cartId).toMatch(/^cart_/)
      await route.continue()
    })
    await fillCard(page, APPROVED_CARD)
    await page.click("#pay")
    const orderId = await confirmedOrderId(page)
    await shot(page, "order-confirmed")
    expect(completedByNotification).toBe(orderId)
    expect(await allOrderIds(admin)).toEqual([orderId, ...before])
  })
})

it("opened twice, the result page shows the one order", async () => {
  const shot = stepScreenshots("starter-result-page-twice")
  const before = await allOrderIds(admin)
  await checkoutToPayment(page, shop, "coffee-beans", shot)
  await chooseCardAndReview(page, shot)
  await toHostedPage()
  await fillCard(page, APPROVED_CARD)
  const returned = page.waitForURL(RESULT_PAGE)
  await page.click("#pay")
  await returned
  const resultUrl = page.url()
  const orderId = await confirmedOrderId(page)
  // Again, as from a bookmark or the back button: the completed cart answers its order.
  await page.goto(resultUrl)
  await expect(confirmedOrderId(page)).resolves.toBe(orderId)
  await shot(page, "order-confirmed-again")
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

it("waits on a mobile payment until the shopper approves it in the app", async () => {
  const shot = stepScreenshots("starter-mobile-wait")
  const total = await checkoutToPayment(page, shop, "coffee-beans", shot)
  await page.locator(`[data-provider="${MOBILE_PROVIDER}"] input`).check()
  await page.fill("#mobile_number", MOBILE_NUMBER)
  await shot(page, "payment-mobile")
  await Promise.all([page.waitForURL(/step=review(&|$)/), page.getByTestId("submit-payment").click()])
  // No session before the final button: the payment request reaches the app only from there.
  const cart = await fetch(
    `${shop.demo.urls.backend}/store/carts/${await cartIdFromCookie()}?fields=*payment_collection.payment_sessions`,
    {
      headers: { "x-publishable-api-key": shop.demo.publishableKey },
    },
  )
  const { cart: beforeButton } = (await cart.json()) as { cart: any }
  expect(beforeButton.payment_collection?.payment_sessions ?? []).toEqual([])
  await Promise.all([
    page.waitForURL(/\/it\/checkout\/nexi\/mobile\?cart_id=cart_\w+&session_id=payses_\w+$/),
    page.getByRole("button", { name: "Place order" }).click(),
  ])
  await page.getByText("Approve the payment in your app.").waitFor()
  await shot(page, "approve-in-your-app")

  const status = await fetch(
    `${shop.demo.urls.backend}/store/nexi/payment-sessions/${new URL(page.url()).searchParams.get("session_id")}?cart_id=${cartIdOf(page.url())}`,
    { headers: { "x-publishable-api-key": shop.demo.publishableKey } },
  )
  const phoneUrl = ((await status.json()) as { payment_session: { data: { approval_url: string } } }).payment_session
    .data.approval_url
  const phone = await context.newPage()
  await phone.goto(phoneUrl)
  await phone.getByRole("button", { name: "Approve" }).click()
  await expect(textOf(phone.getByTestId("notice"))).resolves.toMatch(/approved/i)

  await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await expect(textOf(page.getByTestId("order-payment"))).resolves.toBe("Mobile payment (Nexi)")
  await shot(page, "order-confirmed")
})

it("saves a logged-in customer's card, then pays the next order with its CVV only", async () => {
  const shot = stepScreenshots("starter-saved-card")
  await page.goto(`${shop.storefrontUrl}/it/account`)
  await page.fill("#login_email", shop.demo.shopperCredentials.email)
  await page.fill("#login_password", shop.demo.shopperCredentials.password)
  await Promise.all([page.getByTestId("account").waitFor(), page.getByTestId("sign-in").click()])
  await expect(textOf(page.getByTestId("customer-email"))).resolves.toBe(shop.demo.shopperCredentials.email)
  expect((await context.cookies()).find((cookie) => cookie.name === "_medusa_jwt")).toMatchObject({
    sameSite: "Strict",
    httpOnly: true,
  })

  await checkoutToPayment(page, shop, "espresso-cups", shot)
  await page.locator(`[data-provider="${CARD_PROVIDER}"] input`).check()
  await expect(page.getByTestId("saved-card-option").count()).resolves.toBe(0)
  await page.getByTestId("save-card").check()
  await shot(page, "payment-save-my-card")
  await Promise.all([page.waitForURL(/step=review$/), page.getByTestId("submit-payment").click()])
  await toHostedPage()
  // The cart ships to Milan: the page is Italian (the last test of this file says why).
  await expect(textOf(page.getByTestId("save-notice"))).resolves.toBe(
    "Questa carta verrà salvata per i prossimi acquisti.",
  )
  await fillCard(page, APPROVED_CARD)
  await page.click("#pay")
  const first = await confirmedOrderId(page)

  // The return came without the customer's cookie; the card is saved to their account all the same.
  await page.goto(`${shop.storefrontUrl}/it/account`)
  await page.locator("li", { hasText: "7289" }).waitFor()
  await shot(page, "account-card-saved")

  await checkoutToPayment(page, shop, "moka-pot", shot)
  await page.locator(`[data-provider="${CARD_PROVIDER}"] input`).check()
  const saved = page.getByTestId("saved-card-option")
  await expect(saved.count()).resolves.toBe(1)
  await expect(saved.locator("input").isChecked()).resolves.toBe(true)
  await shot(page, "payment-saved-card-chosen")
  await Promise.all([page.waitForURL(/step=review$/), page.getByTestId("submit-payment").click()])
  await toHostedPage()
  await expect(textOf(page.getByTestId("saved-card"))).resolves.toMatch(/^VISA •••• 7289$/)
  await expect(page.locator("#pan, #expiry").count()).resolves.toBe(0)
  await page.fill("#cvv", APPROVED_CARD.cvv)
  await shot(page, "hosted-page-cvv-only")
  await page.click("#pay")
  const second = await confirmedOrderId(page)
  expect(second).not.toBe(first)
})

it("opens the hosted page in Italian for a shopper in Italy, though no Accept-Language reaches the store", async () => {
  const shot = stepScreenshots("starter-hosted-page-in-italian")
  // The browser says en-GB, but the payment session is created in a server action, whose fetch
  // sends `Accept-Language: *`; the storefront passes no language of its own either. The cart's
  // Italian shipping address decides.
  await checkoutToPayment(page, shop, "coffee-beans", shot)
  await chooseCardAndReview(page, shot)
  await toHostedPage()
  await expect(page.locator("html").getAttribute("lang")).resolves.toBe("it")
  await expect(page.locator("html").getAttribute("data-language")).resolves.toBe("ita")
  await expect(textOf(page.locator("label[for=pan]"))).resolves.toBe("Numero della carta")
  await expect(textOf(page.locator("#cancel"))).resolves.toMatch(/^Annulla/)
  await shot(page, "hosted-page-in-italian")
})

it("lands the customer who pays a payment link on the starter's page for links, which says it is paid", async () => {
  const shot = stepScreenshots("starter-payment-link")
  // Staff collect a draft order by a link (the admin's route); the customer is a guest.
  const region = shop.demo.regions.find((candidate) => candidate.currency_code === "eur")!
  const { product } = await admin<{ product: { variants: Array<{ id: string }> } }>(
    "GET",
    `/admin/products/${shop.demo.products[0].id}?fields=variants.id`,
  )
  const { draft_order } = await admin<{ draft_order: { id: string } }>("POST", "/admin/draft-orders", {
    email: "giulia.rossi@example.com",
    region_id: region.id,
    items: [{ variant_id: product.variants[0].id, quantity: 1 }],
    shipping_address: ADDRESS,
    billing_address: ADDRESS,
  })
  const { payment_links } = await admin<{ payment_links: Array<{ url: string; amount: string; state: string }> }>(
    "POST",
    "/admin/nexi/payment-links",
    { draft_order_id: draft_order.id },
  )
  const link = payment_links.find((candidate) => candidate.state === "open")!

  await page.goto(link.url)
  await fillCard(page, APPROVED_CARD)
  // Back through the country-code middleware, the query kept.
  await Promise.all([
    page.waitForURL(/\/it\/nexi\/payment-link\?order_id=order_\w+&session_id=payses_\w+$/),
    page.click("#pay"),
  ])
  expect(new URL(page.url()).searchParams.get("order_id")).toBe(draft_order.id)
  const outcome = page.getByTestId("payment-link-outcome")
  await expect(outcome.getAttribute("data-status")).resolves.toBe("paid")
  await expect(textOf(outcome.locator("h1"))).resolves.toBe("Thank you: your payment is received")
  await expect(textOf(outcome.getByTestId("text"))).resolves.toBe(`EUR ${link.amount} paid.`)
  await shot(page, "payment-link-paid")
})

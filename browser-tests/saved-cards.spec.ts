/**
 * Saved cards in the demo storefront (issue #14), in headless Chromium: the demo's registered
 * shopper logs in with the credentials `npm run demo` prints, pays an order with "Save my
 * card" ticked, pays the next one with that card giving only the CVV, adds a card from My
 * account without paying, and deletes one. The steps build on each other in one browser (one
 * login), in order. A guest's checkout offers none of it, and a second start that seeds again
 * finds the same shopper with the same cards. What the page shows is checked against the store
 * API, read apart from the browser with the shopper's own login.
 * Screenshots: browser-tests/screenshots/saved-cards-<test>/.
 */
import { rmSync } from "node:fs"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import type { RunningDemo } from "../scripts/demo/start-demo"
import { launchBrowser } from "./support/browser"
import { type DemoForTests, demoForTests } from "./support/demo-shop"
import { addToCart, continueToPayment, orderIdOnPage, textOf } from "./support/demo-storefront"
import { stepScreenshots } from "./support/step-screenshots"

jest.setTimeout(300_000)

/** Approved without a 3-D Secure challenge, so saving it needs no extra step. */
const CARD_TO_SAVE = { pan: "4999 3402 6197 7289", expiry: "12/30", cvv: "663", label: "VISA •••• 7289" }
/** Added from My account: the hosted page verifies it and charges nothing. */
const CARD_TO_ADD = { pan: "5593 4979 4833 2903", expiry: "12/30", cvv: "123", label: "MC •••• 2903" }
const EUROPE = "Europe (EUR)"

interface SavedCard {
  id: string
  circuit: string | null
  masked_pan: string | null
  expiry: string | null
  allows_merchant_charges: boolean
  created_at: string
  provider_id: string
}

let fixture: DemoForTests
let demo: RunningDemo
let browser: Browser
/** The logged-in shopper's browser, shared by the tests in order. */
let shopper: BrowserContext
let page: Page

beforeAll(async () => {
  fixture = demoForTests()
  browser = await launchBrowser()
  demo = await fixture.start()
  shopper = await browser.newContext({ locale: "en-GB" })
  page = await shopper.newPage()
})

afterAll(async () => {
  await browser?.close()
  await fixture?.cleanUp()
})

/** The store API as the shopper, logged in with the printed credentials apart from the browser. */
async function storeAsShopper() {
  const login = await fetch(`${demo.urls.backend}/auth/customer/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(demo.shopperCredentials),
  })
  if (!login.ok) throw new Error(`the demo shopper cannot log in: ${login.status} ${await login.text()}`)
  const { token } = (await login.json()) as { token: string }
  const get = async <T>(path: string): Promise<T> => {
    const answer = await fetch(`${demo.urls.backend}${path}`, {
      headers: { "x-publishable-api-key": demo.publishableKey, authorization: `Bearer ${token}` },
    })
    if (!answer.ok) throw new Error(`GET ${path} answered ${answer.status}: ${await answer.text()}`)
    return (await answer.json()) as T
  }
  return {
    customerId: async () => (await get<{ customer: { id: string } }>("/store/customers/me")).customer.id,
    savedCards: async () => (await get<{ saved_cards: SavedCard[] }>("/store/nexi/saved-cards")).saved_cards,
    orderIds: async () =>
      (await get<{ orders: Array<{ id: string }> }>("/store/orders?fields=id")).orders.map((order) => order.id),
  }
}

/** "VISA •••• 7289" for each card the store lists, as the storefront labels them. */
function labelsOf(cards: SavedCard[]): string[] {
  return cards.map((card) => `${card.circuit} •••• ${card.masked_pan?.slice(-4)}`)
}

async function shownCardLabels(): Promise<string[]> {
  return (await page.getByTestId("saved-card-label").allTextContents()).map((text) => text.trim())
}

async function openMyAccount(): Promise<void> {
  await Promise.all([page.waitForURL(/\/account$/), page.getByTestId("account-link").click()])
  await page.getByTestId("customer").waitFor()
}

async function fillNewCard(card: typeof CARD_TO_SAVE): Promise<void> {
  await page.fill("#pan", card.pan)
  await page.fill("#expiry", card.expiry)
  await page.fill("#cvv", card.cvv)
  await page.fill("#holder", "Giulia Rossi")
}

/** Pays on the hosted page the shopper is on and waits for the storefront's order confirmation. */
async function payAndReachOrder(): Promise<string> {
  await Promise.all([page.waitForURL(/\/order\?id=/, { timeout: 60_000 }), page.click("#pay")])
  await page.getByTestId("order-confirmation").waitFor()
  return orderIdOnPage(page)
}

const placedOrders: string[] = []
let savedCardId: string

it("logs the demo shopper in with the credentials the demo prints", async () => {
  const shot = stepScreenshots("saved-cards-log-in")
  expect(demo.shopperCredentials.email).toBe("shopper@nexi-demo.local")
  expect(demo.shopperCredentials.password.length).toBeGreaterThanOrEqual(12)
  await page.goto(demo.urls.storefront)
  await page.waitForSelector("[data-testid=product]")
  await expect(textOf(page.getByTestId("account-link"))).resolves.toBe("Log in")
  await Promise.all([page.waitForURL(/\/account\/login\?next=/), page.getByTestId("account-link").click()])
  await page.fill("#email", demo.shopperCredentials.email)
  await page.fill("#password", `${demo.shopperCredentials.password}-wrong`)
  await page.getByTestId("log-in").click()
  await expect(textOf(page.getByTestId("error"))).resolves.toMatch(/invalid email or password/i)
  await shot(page, "wrong-password-refused")
  await page.fill("#password", demo.shopperCredentials.password)
  await shot(page, "log-in")
  // Back to the page the shopper came from: the shop.
  await Promise.all([page.waitForURL(`${demo.urls.storefront}/`), page.getByTestId("log-in").click()])
  await expect(textOf(page.getByTestId("account-link"))).resolves.toBe("My account")
  await shot(page, "shop-logged-in")
  await openMyAccount()
  await expect(textOf(page.getByTestId("customer"))).resolves.toBe(
    `Logged in as Giulia Rossi (${demo.shopperCredentials.email}).`,
  )
  await expect(page.getByTestId("no-saved-cards").isVisible()).resolves.toBe(true)
  await shot(page, "my-account-no-cards")
  await expect((await storeAsShopper()).savedCards()).resolves.toEqual([])
})

it("pays an order with Save my card ticked, and the card is saved", async () => {
  const shot = stepScreenshots("saved-cards-pay-and-save")
  await addToCart(page, demo, "espresso-cups", EUROPE)
  await shot(page, "cart")
  await continueToPayment(page, async () => {
    // The cart is the customer's: the address step has their e-mail.
    await expect(page.inputValue("#email")).resolves.toBe(demo.shopperCredentials.email)
    await shot(page, "address")
  })
  await expect(page.getByTestId("saved-card-method").count()).resolves.toBe(0)
  await expect(page.getByTestId("save-card-field").isVisible()).resolves.toBe(true)
  await page.getByTestId("save-card").check()
  // Consent to the shop's later charges is a separate choice, never made for the shopper.
  await expect(page.getByTestId("allow-merchant-charges").isChecked()).resolves.toBe(false)
  await shot(page, "payment-save-my-card-ticked")
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(demo.urls.simulator)),
    page.getByTestId("pay").click(),
  ])
  await expect(textOf(page.getByTestId("save-notice"))).resolves.toBe("This card will be saved for future purchases.")
  await fillNewCard(CARD_TO_SAVE)
  await shot(page, "hosted-page-card-to-save")
  const orderId = await payAndReachOrder()
  await expect(textOf(page.getByTestId("order-placed"))).resolves.toMatch(/^Order #\d+ is placed\./)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("EUR 29.89")
  await shot(page, "order-placed")
  placedOrders.push(orderId)

  const store = await storeAsShopper()
  await expect(store.orderIds()).resolves.toContain(orderId)
  const cards = await store.savedCards()
  expect(labelsOf(cards)).toEqual([CARD_TO_SAVE.label])
  expect(cards[0]).toMatchObject({ circuit: "VISA", provider_id: "pp_nexi_nexi", allows_merchant_charges: false })
  savedCardId = cards[0].id
  await openMyAccount()
  await expect(shownCardLabels()).resolves.toEqual([CARD_TO_SAVE.label])
  await expect(textOf(page.getByTestId("saved-card-charges"))).resolves.toBe("only you pay with it")
  await shot(page, "my-account-card-saved")
})

it("pays the next order with the saved card, giving only its CVV", async () => {
  const shot = stepScreenshots("saved-cards-pay-with-saved-card")
  await addToCart(page, demo, "moka-pot", EUROPE)
  await continueToPayment(page)
  const savedOption = page.locator(`[data-testid=saved-card-method][data-saved-card="${savedCardId}"]`)
  await expect(textOf(savedOption.getByTestId("saved-card-label"))).resolves.toBe(CARD_TO_SAVE.label)
  // The saved card is the one chosen, and "Save my card" is for a new card only.
  await expect(savedOption.locator("input").isChecked()).resolves.toBe(true)
  await expect(page.getByTestId("save-card-field").isVisible()).resolves.toBe(false)
  await shot(page, "payment-saved-card-chosen")
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(demo.urls.simulator)),
    page.getByTestId("pay").click(),
  ])
  await expect(textOf(page.getByTestId("saved-card"))).resolves.toBe(CARD_TO_SAVE.label)
  await expect(page.locator("#pan, #expiry").count()).resolves.toBe(0)
  await page.fill("#cvv", CARD_TO_SAVE.cvv)
  await shot(page, "hosted-page-cvv-only")
  const orderId = await payAndReachOrder()
  expect(placedOrders).not.toContain(orderId)
  // 39.90 EUR plus Italy's 22% VAT.
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe("EUR 48.68")
  await expect(textOf(page.getByTestId("payment-status"))).resolves.toBe("Payment: authorized")
  await shot(page, "order-placed")
  placedOrders.push(orderId)

  const store = await storeAsShopper()
  await expect(store.orderIds()).resolves.toEqual(expect.arrayContaining(placedOrders))
  // Paying with the card saved nothing new.
  expect((await store.savedCards()).map((card) => card.id)).toEqual([savedCardId])
})

it("adds a card from My account without paying, with the customer's consent to merchant charges", async () => {
  const shot = stepScreenshots("saved-cards-add-a-card")
  await openMyAccount()
  await shot(page, "my-account")
  await expect(page.getByTestId("add-card-allow-merchant-charges").isChecked()).resolves.toBe(false)
  await page.getByTestId("add-card-allow-merchant-charges").check()
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(demo.urls.simulator)),
    page.getByTestId("add-card").click(),
  ])
  await expect(textOf(page.getByTestId("amount"))).resolves.toBe("No charge")
  await expect(textOf(page.locator("#pay"))).resolves.toBe("Verify card")
  await fillNewCard(CARD_TO_ADD)
  await shot(page, "hosted-page-verify-card")
  await Promise.all([page.waitForURL(`${demo.urls.storefront}/account`), page.click("#pay")])
  await expect(textOf(page.getByTestId("card-added"))).resolves.toBe(
    `${CARD_TO_ADD.label} is saved. Choose it at checkout and give only its CVV.`,
  )
  await expect(shownCardLabels()).resolves.toEqual([CARD_TO_ADD.label, CARD_TO_SAVE.label])
  await shot(page, "my-account-card-added")

  const cards = await (await storeAsShopper()).savedCards()
  expect(labelsOf(cards)).toEqual([CARD_TO_ADD.label, CARD_TO_SAVE.label])
  // The box was ticked for the added card only: the shop may charge it, not the one saved at checkout.
  expect(cards.map((card) => card.allows_merchant_charges)).toEqual([true, false])
})

it("deletes a saved card from My account", async () => {
  const shot = stepScreenshots("saved-cards-delete-a-card")
  const row = page.locator(`[data-testid=saved-card][data-card-id="${savedCardId}"]`)
  await expect(textOf(row.getByTestId("saved-card-label"))).resolves.toBe(CARD_TO_SAVE.label)
  await shot(page, "my-account-before-delete")
  await row.getByTestId("delete-card").click()
  await expect(textOf(page.getByTestId("card-deleted"))).resolves.toBe(`${CARD_TO_SAVE.label} is deleted.`)
  await expect(row.count()).resolves.toBe(0)
  await expect(shownCardLabels()).resolves.toEqual([CARD_TO_ADD.label])
  await shot(page, "my-account-card-deleted")

  const cards = await (await storeAsShopper()).savedCards()
  expect(labelsOf(cards)).toEqual([CARD_TO_ADD.label])
  expect(cards.map((card) => card.id)).not.toContain(savedCardId)
  // Gone from the checkout too: the next order offers only the card that is left.
  await addToCart(page, demo, "coffee-beans", EUROPE)
  await continueToPayment(page)
  await expect(page.getByTestId("saved-card-label").allTextContents()).resolves.toEqual([CARD_TO_ADD.label])
  await shot(page, "payment-only-the-card-left")
})

it("offers a guest neither saved cards nor Save my card", async () => {
  const shot = stepScreenshots("saved-cards-guest-checkout")
  const guest = await browser.newContext({ locale: "en-GB" })
  const guestPage = await guest.newPage()
  try {
    await addToCart(guestPage, demo, "coffee-beans", EUROPE)
    await continueToPayment(guestPage)
    await expect(textOf(guestPage.getByTestId("account-link"))).resolves.toBe("Log in")
    await expect(guestPage.getByTestId("saved-card-method").count()).resolves.toBe(0)
    await expect(guestPage.getByTestId("save-card-field").count()).resolves.toBe(0)
    // The card method is chosen first, as before saved cards existed.
    await expect(guestPage.locator('[data-provider="pp_nexi_nexi"] input').isChecked()).resolves.toBe(true)
    await shot(guestPage, "payment-step-as-guest")
  } finally {
    await guest.close()
  }
})

it("keeps the shopper and their cards when a second start seeds the store again", async () => {
  const shot = stepScreenshots("saved-cards-second-start")
  const before = await storeAsShopper()
  const customerId = await before.customerId()
  const credentials = demo.shopperCredentials
  // Without the record of the last seed, the second start runs the seed again: it must find the shopper.
  rmSync(join(fixture.dataDir, "store.json"))
  demo = await fixture.start()
  expect(demo.timings.seed).toBeGreaterThan(0)
  expect(demo.shopperCredentials).toEqual(credentials)
  const after = await storeAsShopper()
  await expect(after.customerId()).resolves.toBe(customerId)
  await expect(after.savedCards().then(labelsOf)).resolves.toEqual([CARD_TO_ADD.label])
  await expect(after.orderIds()).resolves.toEqual(expect.arrayContaining(placedOrders))
  // The new start's storefront (other ports, so a new login in the browser) shows the same account.
  await page.goto(`${demo.urls.storefront}/account/login`)
  await page.fill("#email", credentials.email)
  await page.fill("#password", credentials.password)
  await Promise.all([page.waitForURL(`${demo.urls.storefront}/account`), page.getByTestId("log-in").click()])
  await page.getByTestId("customer").waitFor()
  await expect(shownCardLabels()).resolves.toEqual([CARD_TO_ADD.label])
  await shot(page, "my-account-after-second-start")
})

/**
 * XPay Build in the starter-shaped storefront (browser-tests/starter-storefront), in headless
 * Chromium against the demo's store and the gateway simulator: a store that takes new cards in
 * the gateway's fields on the review step (NEXI_CARD_FIELDS, with the SDK's integrity from
 * GET /build/integrity), through the kit's NexiCardFields. The shopper pays without leaving the
 * checkout page, leaves it only for a 3-D Secure challenge, tries another card after a decline,
 * and starts again when the fields expired or the cart changed after they opened.
 * Screenshots: browser-tests/screenshots/starter-fields-<test>/.
 */
import type { Browser, BrowserContext, Frame, Page } from "playwright-core"
import { launchBrowser } from "./support/browser"
import { textOf } from "./support/demo-storefront"
import { APPROVED_CARD, allOrderIds, CHALLENGE_CARD, DECLINED_CARD, type TestCard } from "./support/hosted-page-shopper"
import {
  checkoutToPayment,
  chooseCardAndReview,
  confirmedOrderId,
  RESULT_PAGE,
  whereThePageIs,
} from "./support/starter-checkout"
import { type AdminCall, adminApi, type StarterShop, startStarterShop } from "./support/starter-shop"
import { stepScreenshots } from "./support/step-screenshots"

jest.setTimeout(300_000)

let shop: StarterShop
let admin: AdminCall
let browser: Browser
let context: BrowserContext
let page: Page
/** Every address the tab's page was at, in order. */
let visited: string[]

beforeAll(async () => {
  browser = await launchBrowser()
  shop = await startStarterShop({ cardFields: true })
  admin = await adminApi(shop.demo)
})

afterAll(async () => {
  await browser?.close()
  await shop?.cleanUp()
})

beforeEach(async () => {
  context = await browser.newContext({ locale: "en-GB" })
  page = await context.newPage()
  visited = []
  page.on("framenavigated", (frame: Frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url())
  })
})

afterEach(async () => {
  await context?.close()
})

async function waitForState(state: string): Promise<void> {
  try {
    await page.locator(`[data-nexi-card-fields][data-state="${state}"]`).waitFor({ timeout: 30_000 })
  } catch (error) {
    throw new Error(
      `the card fields did not reach ${state}: ${await whereThePageIs(page)} (${(error as Error).message})`,
    )
  }
}

/** The gateway session of the fields shown: the `sid` of their pages. */
async function fieldSession(): Promise<string> {
  const src = await page.locator("#CARD_NUMBER iframe").getAttribute("src")
  return new URL(src!).searchParams.get("sid")!
}

/** Types into one of the gateway's fields, as the shopper does, and leaves it (the field checks its value then). */
async function type(id: string, value: string): Promise<void> {
  const input = page.frameLocator(`#${id} iframe`).locator("#field")
  await input.fill(value)
  await input.blur()
}

async function typeCard(card: TestCard): Promise<void> {
  await type("CARD_NUMBER", card.pan)
  await type("EXPIRATION_DATE", card.expiry)
  await type("SECURITY_CODE", card.cvv)
  await type("CARDHOLDER_NAME", "Giulia Rossi")
  await waitForState("ready")
}

/** Through the checkout to the review step, where the card fields are ready; answers the cart total shown. */
async function toCardFields(handle: string, shot: (page: Page, step: string) => Promise<void>): Promise<string> {
  const total = await checkoutToPayment(page, shop, handle, shot)
  await chooseCardAndReview(page, shot)
  await waitForState("ready")
  return total
}

const payButton = (total: string) => page.getByRole("button", { name: `Pay ${total}` })
const leftForTheGateway = () => visited.filter((url) => url.startsWith(shop.demo.urls.simulator))

it("pays a card typed in the checkout's own fields without leaving the page, after a wrong number is marked", async () => {
  const shot = stepScreenshots("starter-fields-approved")
  const before = await allOrderIds(admin)
  const total = await toCardFields("espresso-cups", shot)
  // The SDK came from the gateway with the integrity the operator read, and the browser accepted it.
  const sdk = page.locator('script[src$="/monetaweb/resources/hfsdk.js"]')
  await expect(sdk.getAttribute("integrity")).resolves.toMatch(/^sha384-/)
  await expect(sdk.getAttribute("crossorigin")).resolves.toBe("anonymous")
  // The shop's stylesheet reached the input inside the gateway's field (the SDK's cssLink).
  const number = page.frameLocator("#CARD_NUMBER iframe").locator("#field")
  await expect(number.getAttribute("class")).resolves.toBe("card-input")
  await shot(page, "card-fields")

  await type("CARD_NUMBER", "4111 1111 1111 1112")
  await waitForState("invalid")
  await expect(textOf(page.locator('[data-nexi-field-problem="CARD_NUMBER"]'))).resolves.toMatch(/card number/i)
  await shot(page, "card-number-invalid")
  await typeCard(APPROVED_CARD)
  await shot(page, "card-typed")
  await payButton(total).click()
  const orderId = await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await expect(textOf(page.getByTestId("order-payment"))).resolves.toBe("Card (Nexi)")
  await shot(page, "order-confirmed")
  expect(leftForTheGateway()).toEqual([])
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

it("leaves the page only for the 3-D Secure challenge, and places the order back on the result page", async () => {
  const shot = stepScreenshots("starter-fields-challenge")
  const total = await toCardFields("moka-pot", shot)
  await typeCard(CHALLENGE_CARD)
  await Promise.all([page.waitForURL(/\/challenge\?token=/), payButton(total).click()])
  expect(leftForTheGateway()).toHaveLength(1)
  await shot(page, "3ds-challenge")
  await Promise.all([page.waitForURL(RESULT_PAGE), page.click("#approve")])
  await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  await shot(page, "order-confirmed")
})

it("says why a declined card did not pay, and another card in new fields pays", async () => {
  const shot = stepScreenshots("starter-fields-declined")
  const before = await allOrderIds(admin)
  const total = await toCardFields("coffee-beans", shot)
  const declinedSession = await fieldSession()
  await typeCard(DECLINED_CARD)
  await payButton(total).click()
  await waitForState("declined")
  await expect(textOf(page.locator("[data-nexi-status]"))).resolves.toMatch(/declined/i)
  await shot(page, "declined")

  await page.getByRole("button", { name: "Try another card" }).click()
  await waitForState("ready")
  expect(await fieldSession()).not.toBe(declinedSession)
  await typeCard(APPROVED_CARD)
  await payButton(total).click()
  const orderId = await confirmedOrderId(page)
  await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  expect(leftForTheGateway()).toEqual([])
  expect(await allOrderIds(admin)).toEqual([orderId, ...before])
})

describe("fields that can no longer pay", () => {
  afterEach(async () => {
    await fetch(`${shop.demo.urls.simulatorControl}/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offsetMs: 0 }),
    })
  })

  it("expired: the shopper starts again with new fields and pays", async () => {
    const shot = stepScreenshots("starter-fields-expired")
    const total = await toCardFields("espresso-cups", shot)
    const expiredSession = await fieldSession()
    // The gateway's session lasts 15 minutes: the shopper comes back to the tab after 16.
    await fetch(`${shop.demo.urls.simulatorControl}/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offsetMs: 16 * 60_000 }),
    })
    await type("CARD_NUMBER", APPROVED_CARD.pan)
    await waitForState("expired")
    await expect(textOf(page.locator("[data-nexi-status]"))).resolves.toBe("These card fields have expired.")
    await shot(page, "expired")

    await page.getByRole("button", { name: "Start again" }).click()
    await waitForState("ready")
    expect(await fieldSession()).not.toBe(expiredSession)
    await typeCard(APPROVED_CARD)
    await payButton(total).click()
    await confirmedOrderId(page)
    await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(total)
  })

  it("the cart changed in another tab: the old fields pay nothing, new ones pay the new total", async () => {
    const shot = stepScreenshots("starter-fields-cart-changed")
    const before = await allOrderIds(admin)
    const total = await toCardFields("moka-pot", shot)
    const oldSession = await fieldSession()
    const other = await context.newPage()
    await other.goto(`${shop.storefrontUrl}/it`)
    await Promise.all([
      other.waitForURL(/\/it\/cart$/),
      other.locator("[data-handle=coffee-beans] [data-testid=add-to-cart]").click(),
    ])
    await other.close()

    // This tab still shows the old total and fields.
    await typeCard(APPROVED_CARD)
    await payButton(total).click()
    await waitForState("expired")
    await expect(textOf(page.locator("[data-nexi-status]"))).resolves.toMatch(/^Your cart changed/)
    await shot(page, "cart-changed")
    await page.getByRole("button", { name: "Start again" }).click()
    await waitForState("ready")
    expect(await fieldSession()).not.toBe(oldSession)
    const newTotal = await textOf(page.getByTestId("cart-total"))
    expect(newTotal).not.toBe(total)
    await typeCard(APPROVED_CARD)
    await payButton(newTotal).click()
    const orderId = await confirmedOrderId(page)
    await expect(textOf(page.getByTestId("order-total"))).resolves.toBe(newTotal)
    expect(await allOrderIds(admin)).toEqual([orderId, ...before])
  })
})

/**
 * A shopper's moves through the starter-shaped storefront's checkout (browser-tests/starter-storefront),
 * for the suites that drive it in Chromium: from the shop to the payment step, the card chosen
 * and the review step, and the order's confirmation at the end. The test cards, the hosted page's
 * form and the store's order list are in hosted-page-shopper.ts.
 */
import type { Page } from "playwright-core"
import { textOf } from "./demo-storefront"
import { SHIPPING_OPTION, type StarterShop } from "./starter-shop"

export const CARD_PROVIDER = "pp_nexi_nexi"
export const RESULT_PAGE = /\/it\/checkout\/nexi\/result\?cart_id=cart_/

export type Shot = (page: Page, step: string) => Promise<void>

/** From the shop to the payment step, as a shopper clicks through the starter's checkout; answers the cart total shown. */
export async function checkoutToPayment(page: Page, shop: StarterShop, handle: string, shot: Shot): Promise<string> {
  await page.goto(shop.storefrontUrl)
  // The middleware sends the bare address to the default country's shop.
  await page.waitForURL(`${shop.storefrontUrl}/it`)
  await Promise.all([
    page.waitForURL(/\/it\/cart$/),
    page.locator(`[data-handle=${handle}] [data-testid=add-to-cart]`).click(),
  ])
  await page.getByTestId("cart-line").waitFor()
  await Promise.all([page.waitForURL(/\/it\/checkout\?step=address$/), page.getByText("Go to checkout").click()])
  // A logged-in customer's e-mail is there already.
  if (!(await page.inputValue("#email"))) await page.fill("#email", "giulia.rossi@example.com")
  await page.fill("#first_name", "Giulia")
  await page.fill("#last_name", "Rossi")
  await page.fill("#address_1", "Via Roma 1")
  await page.fill("#postal_code", "20121")
  await page.fill("#city", "Milano")
  await shot(page, "address")
  await Promise.all([page.waitForURL(/step=delivery$/), page.getByTestId("submit-address").click()])
  const option = page.getByTestId("delivery-option").filter({ hasText: SHIPPING_OPTION })
  await option.locator("input").check()
  await page.waitForFunction(
    () => !document.querySelector("[data-testid=submit-delivery-option]")?.hasAttribute("disabled"),
  )
  await shot(page, "delivery")
  await Promise.all([page.waitForURL(/step=payment$/), page.getByTestId("submit-delivery-option").click()])
  await page.getByTestId("payment-method").first().waitFor()
  return textOf(page.getByTestId("cart-total"))
}

export async function chooseCardAndReview(page: Page, shot: Shot): Promise<void> {
  await page.locator(`[data-provider="${CARD_PROVIDER}"] input`).check()
  await shot(page, "payment")
  // The step keeps the query it had (after a cancel, the cart_id of the cancelUrl).
  await Promise.all([page.waitForURL(/step=review(&|$)/), page.getByTestId("submit-payment").click()])
  await expect(textOf(page.getByTestId("review-shipping"))).resolves.toBe(SHIPPING_OPTION)
}

const CONFIRMED = /\/it\/order\/(order_[A-Z0-9]+)\/confirmed$/

/** The order id of the confirmation page, once the checkout has sent the shopper there. */
export async function confirmedOrderId(page: Page): Promise<string> {
  try {
    await page.waitForURL(CONFIRMED, { timeout: 60_000 })
  } catch (error) {
    throw new Error(`no order confirmation: ${await whereThePageIs(page)} (${(error as Error).message})`)
  }
  await page.getByTestId("order-confirmed").waitFor()
  return CONFIRMED.exec(page.url())![1]
}

/** What a shopper would see instead: the address, the card fields' state and status, and any alert. */
export async function whereThePageIs(page: Page): Promise<string> {
  const fields = page.locator("[data-nexi-card-fields]")
  const shown = {
    url: page.url(),
    ...((await fields.count())
      ? { state: await fields.getAttribute("data-state"), status: await textOf(fields.locator("[data-nexi-status]")) }
      : {}),
    alerts: await page.getByRole("alert").allTextContents(),
  }
  return JSON.stringify(shown)
}

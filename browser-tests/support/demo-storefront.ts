/**
 * A shopper's moves through the demo storefront (scripts/demo/storefront), for the suites that
 * drive it in Chromium: pick a product in a region, walk the checkout to the payment step,
 * read what a page shows.
 */
import type { Page } from "playwright-core"
import type { RunningDemo } from "../../scripts/demo/start-demo"

/** The text of an element, with Intl's no-break spaces ("EUR\u00a024.50") read as spaces. */
export async function textOf(target: { textContent(): Promise<string | null> }): Promise<string> {
  return ((await target.textContent()) ?? "").replace(/\u00a0/g, " ")
}

/** Puts one unit of the product in the cart in that region; ends on the cart step. */
export async function addToCart(page: Page, demo: RunningDemo, handle: string, regionName: string): Promise<void> {
  await page.goto(demo.urls.storefront)
  await page.getByTestId("region").selectOption({ label: regionName })
  // The region is chosen by reloading the shop; wait until the prices are the region's.
  const currency = demo.regions.find((region) => region.name === regionName)!.currency_code.toUpperCase()
  await page.waitForFunction(
    ([wanted, code]) =>
      document.querySelector(`[data-handle=${wanted}] [data-testid=price]`)?.textContent?.startsWith(code),
    [handle, currency] as const,
  )
  await Promise.all([
    page.waitForURL(/step=cart/),
    page.locator(`[data-handle=${handle}] [data-testid=add-to-cart]`).click(),
  ])
  await page.waitForSelector("[data-testid=cart-line]")
}

/** From the cart step through the address (as filled in) to the payment step; `onAddress` sees the address form. */
export async function continueToPayment(page: Page, onAddress?: () => Promise<void>): Promise<void> {
  await page.getByTestId("to-address").click()
  await page.waitForSelector("[data-testid=address-form]")
  await onAddress?.()
  await Promise.all([page.waitForURL(/step=payment/), page.getByTestId("to-payment").click()])
  await page.waitForSelector("[data-testid=payment-method]")
}

/** The order id of the confirmation page the shopper is on. */
export function orderIdOnPage(page: Page): string {
  const orderId = new URL(page.url()).searchParams.get("id")
  if (!orderId?.startsWith("order_")) throw new Error(`not on an order confirmation: ${page.url()}`)
  return orderId
}

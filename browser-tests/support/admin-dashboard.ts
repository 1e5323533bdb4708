/**
 * What staff do in the demo's Medusa admin (the 2.21 dashboard plus the plugin's "Nexi payment"
 * widget), one function per action. Medusa's own controls have no test ids; they are found by
 * the labels and roles the dashboard renders in English (read from the running admin), the
 * widget's by the data-testid table of docs/admin.md.
 */
import type { Locator, Page } from "playwright-core"
import type { RunningDemo } from "../../scripts/demo/start-demo"

/** The dev admin's first page load waits while Vite optimises its dependencies (30-90 s). */
const FIRST_LOAD_TIMEOUT_MS = 240_000
/** A gateway round trip through Medusa on a loaded two-core machine. */
const ACTION_TIMEOUT_MS = 60_000

export interface WidgetAmounts {
  authorized: string
  captured: string
  refunded: string
}

/** Intl's no-break spaces read as spaces. */
async function textOf(target: Locator): Promise<string> {
  return ((await target.textContent()) ?? "").replace(/\u00a0/g, " ").trim()
}

/** The latest toast of Medusa's UI (sonner), e.g. "Payment of €29.89 successfully captured". */
async function nextToast(page: Page): Promise<string> {
  const toast = page.locator("[data-sonner-toast]").last()
  await toast.waitFor({ timeout: ACTION_TIMEOUT_MS })
  return textOf(toast)
}

export async function openSignInPage(page: Page, demo: RunningDemo): Promise<void> {
  await page.goto(`${demo.urls.admin}/login`, { timeout: FIRST_LOAD_TIMEOUT_MS })
  await page.locator("input[name=email]").waitFor({ timeout: FIRST_LOAD_TIMEOUT_MS })
}

/** Signs in with the credentials the demo prints; lands on the order list. */
export async function signIn(page: Page, demo: RunningDemo): Promise<void> {
  await page.locator("input[name=email]").fill(demo.adminCredentials.email)
  await page.locator("input[name=password]").fill(demo.adminCredentials.password)
  await Promise.all([
    page.waitForURL(/\/app\/orders/, { timeout: ACTION_TIMEOUT_MS }),
    page.getByRole("button", { name: "Continue with Email" }).click(),
  ])
}

/** The order's row in the order list (the list loads after signing in). */
export async function orderInList(page: Page, displayId: number): Promise<Locator> {
  const row = page.getByRole("row").filter({ has: page.getByText(`#${displayId}`, { exact: true }) })
  await row.waitFor({ timeout: ACTION_TIMEOUT_MS })
  return row
}

/** Opens an order from its row in the list, as staff do, and waits for the Nexi widget's payment. */
export async function openOrder(page: Page, row: Locator): Promise<void> {
  await Promise.all([page.waitForURL(/\/app\/orders\/order_/), row.click()])
  await widgetLoaded(page)
}

/** Reloads the order page (Medusa's sections and the widget read everything again). */
export async function reloadOrder(page: Page): Promise<void> {
  await page.reload()
  await widgetLoaded(page)
}

async function widgetLoaded(page: Page): Promise<void> {
  await page.getByTestId("nexi-operation-row").first().waitFor({ timeout: ACTION_TIMEOUT_MS })
  // The widget sits at the end of the page, which scrolls inside <main>: bring it on screen.
  await page.getByTestId("nexi-order-payment").scrollIntoViewIfNeeded()
}

export async function widgetAmounts(page: Page): Promise<WidgetAmounts> {
  return {
    authorized: await textOf(page.getByTestId("nexi-authorized")),
    captured: await textOf(page.getByTestId("nexi-captured")),
    refunded: await textOf(page.getByTestId("nexi-refunded")),
  }
}

/** The Medusa payment id of the widget's (only) card payment. */
export async function widgetPaymentId(page: Page): Promise<string> {
  const id = await page.getByTestId("nexi-payment").getAttribute("data-payment-id")
  if (!id) throw new Error("the Nexi widget shows no payment id")
  return id
}

export function timelineRows(page: Page, type: string, result?: string): Locator {
  const resultFilter = result ? `[data-operation-result="${result}"]` : ""
  return page.locator(`[data-testid="nexi-operation-row"][data-operation-type="${type}"]${resultFilter}`)
}

/**
 * Medusa's "Capture payment" button and its confirmation. In Medusa 2.21 the confirmation has
 * no amount field: the button always captures the payment's whole amount.
 */
export async function openMedusaCapturePrompt(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Capture payment" }).click()
  const prompt = page.getByRole("alertdialog")
  await prompt.waitFor()
  return prompt
}

/** Confirms the open capture prompt; answers the toast Medusa shows. */
export async function confirmMedusaCapture(page: Page, prompt: Locator): Promise<string> {
  await prompt.getByRole("button", { name: "Confirm" }).click()
  return nextToast(page)
}

/**
 * Medusa's "Create Refund" drawer of the order's payment ("..." menu of the payment in the
 * Payments section, then "Refund"), filled with the amount (major units, "10.00") and a note.
 */
export async function openMedusaRefundDrawer(page: Page, amount: string, note: string): Promise<Locator> {
  // The Payments section: the nearest ancestor of its heading that holds the payment's menu.
  const payments = page.getByRole("heading", { name: "Payments", exact: true }).locator("xpath=ancestor::div[.//button[@aria-haspopup='menu']][1]")
  await payments.locator("button[aria-haspopup=menu]").first().click()
  await Promise.all([page.waitForURL(/\/refund\?paymentId=pay_/), page.getByRole("menuitem", { name: "Refund" }).click()])
  const drawer = page.getByRole("dialog")
  await drawer.getByRole("heading", { name: "Create Refund" }).waitFor()
  await drawer.getByLabel("Amount").fill(amount)
  await drawer.getByLabel("Note").fill(note)
  return drawer
}

/** Saves the open refund drawer; answers the toast Medusa shows. */
export async function saveMedusaRefund(page: Page, drawer: Locator): Promise<string> {
  await drawer.getByRole("button", { name: "Save" }).click()
  return nextToast(page)
}

/** The widget's "Cancel capture" dialog of the executed capture, with the reason typed in. */
export async function openWidgetCancelCapture(page: Page, reason: string): Promise<void> {
  await timelineRows(page, "CAPTURE", "EXECUTED").getByTestId("nexi-cancel-capture").click()
  await page.getByTestId("nexi-cancel-capture-reason").fill(reason)
}

/**
 * Confirms the widget's open "Cancel capture" dialog and waits for its outcome: the widget's
 * notice on success, or the refusal shown inside the dialog (which then stays open).
 */
export async function confirmWidgetCancelCapture(page: Page): Promise<{ notice: string } | { refusal: string }> {
  await page.getByTestId("nexi-cancel-capture-confirm").click()
  const notice = page.getByTestId("nexi-notice")
  const refusal = page.getByTestId("nexi-cancel-capture-confirm-error")
  await notice.or(refusal).waitFor({ timeout: ACTION_TIMEOUT_MS })
  return (await refusal.isVisible()) ? { refusal: await textOf(refusal) } : { notice: await textOf(notice) }
}

/** Closes the widget's cancel dialog with "Keep capture". */
export async function keepCapture(page: Page): Promise<void> {
  await page.getByRole("alertdialog").getByRole("button", { name: "Keep capture" }).click()
  await page.getByRole("alertdialog").waitFor({ state: "hidden" })
}

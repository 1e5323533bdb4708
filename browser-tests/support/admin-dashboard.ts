/**
 * What staff do in the demo's Medusa admin (the 2.21 dashboard plus the plugin's "Nexi payment"
 * widget), one function per action. Medusa's own controls have no test ids; they are found by
 * the labels and roles the dashboard renders in English (read from the running admin), the
 * widget's by the data-testid table of docs/admin.md.
 */
import type { Locator, Page } from "playwright-core"
import type { RunningDemo } from "../../scripts/demo/start-demo"
import type { GatewayView } from "./admin-amounts"

/** The dev admin's first page load waits while Vite optimises its dependencies (30-90 s). */
const FIRST_LOAD_TIMEOUT_MS = 240_000
/** A gateway round trip through Medusa on a loaded two-core machine. */
const ACTION_TIMEOUT_MS = 60_000

/** What a staff test works with: the running demo, its gateway's view, and this test's page. */
export interface StaffSession {
  demo: RunningDemo
  gateway: GatewayView
  page: Page
}

export interface WidgetAmounts {
  authorized: string
  captured: string
  refunded: string
}

/** Intl's no-break spaces read as spaces. */
async function textOf(target: Locator): Promise<string> {
  return ((await target.textContent()) ?? "").replace(/\u00a0/g, " ").trim()
}

/**
 * Waits until the page's finite CSS transitions and animations have ended (a dialog fading in,
 * an input's border turning red), so a screenshot shows the state they lead to. Endless ones
 * (a loading skeleton's pulse) are not waited for.
 */
export async function transitionsEnded(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== "running" ||
            animation.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY,
        ),
    undefined,
    { timeout: ACTION_TIMEOUT_MS },
  )
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
  // The page scrolls inside <main>: bring the widget on screen.
  await page.getByTestId("nexi-order-payment").scrollIntoViewIfNeeded()
}

/**
 * Where a widget sits on a detail page, against one of Medusa's own sections of the main column
 * (its heading, "Payments" on an order) and the JSON section that ends the page.
 */
export async function widgetPlacement(
  page: Page,
  widgetTestId: string,
  mainHeading: string,
): Promise<{ besideMain: boolean; aboveJson: boolean }> {
  const box = async (target: Locator) => {
    const found = await target.boundingBox()
    if (!found) throw new Error("an element of the page has no box")
    return found
  }
  const widget = await box(page.getByTestId(widgetTestId))
  const main = await box(page.getByRole("heading", { name: mainHeading, exact: true }))
  const json = await box(page.getByRole("heading", { name: "JSON", exact: true }))
  return { besideMain: widget.x > main.x + main.width, aboveJson: widget.y < json.y }
}

/** Settings > Nexi, opened from its address once signed in. */
export async function openNexiSettings(page: Page, demo: RunningDemo): Promise<void> {
  await page.goto(`${demo.urls.admin}/settings/nexi`)
  await page.getByTestId("nexi-moto").waitFor({ timeout: ACTION_TIMEOUT_MS })
}

/** Types into the MOTO form's search and answers the order ids it then lists (after Medusa answered). */
export async function searchMotoOrders(page: Page, search: string, expectedId: string): Promise<string[]> {
  await page.getByTestId("nexi-moto-order-search").fill(search)
  await page
    .locator(`[data-testid="nexi-moto-order-option"][data-order-id="${expectedId}"]`)
    .waitFor({ timeout: ACTION_TIMEOUT_MS })
  return page
    .getByTestId("nexi-moto-order-option")
    .evaluateAll((options) => options.map((option) => option.getAttribute("data-order-id") ?? ""))
}

/** Picks an order from the MOTO form's list; answers the sentence saying what will be charged. */
export async function pickMotoOrder(page: Page, orderId: string): Promise<string> {
  await page.locator(`[data-testid="nexi-moto-order-option"][data-order-id="${orderId}"]`).click()
  const picked = page.locator(`[data-testid="nexi-moto-order-picked"][data-order-id="${orderId}"]`)
  await picked.waitFor()
  return textOf(picked)
}

/** Fills the MOTO form's card, charges it, and answers the order the route names and its sentence. */
export async function chargeMotoCard(
  page: Page,
  card: { pan: string; expiry: string; cvv: string },
): Promise<{ orderId: string; message: string }> {
  await page.getByTestId("nexi-moto-pan").fill(card.pan)
  await page.getByTestId("nexi-moto-expiry").fill(card.expiry)
  await page.getByTestId("nexi-moto-cvv").fill(card.cvv)
  await page.getByTestId("nexi-moto-submit").click()
  await page
    .locator('[data-testid="nexi-moto-result"], [data-testid="nexi-moto-error"]')
    .first()
    .waitFor({ timeout: ACTION_TIMEOUT_MS })
  const refusal = page.getByTestId("nexi-moto-error")
  if (await refusal.isVisible()) throw new Error(`the MOTO payment was refused: ${await textOf(refusal)}`)
  const result = page.getByTestId("nexi-moto-result")
  return { orderId: (await result.getAttribute("data-order-id")) ?? "", message: await textOf(result) }
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
  const payments = page
    .getByRole("heading", { name: "Payments", exact: true })
    .locator("xpath=ancestor::div[.//button[@aria-haspopup='menu']][1]")
  await payments.locator("button[aria-haspopup=menu]").first().click()
  await Promise.all([
    page.waitForURL(/\/refund\?paymentId=pay_/),
    page.getByRole("menuitem", { name: "Refund" }).click(),
  ])
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

/** What a widget dialog ended with: the widget's notice on success, or the refusal shown in the dialog. */
export type WidgetOutcome = { notice: string } | { refusal: string }

/**
 * Clicks a widget dialog's confirm button and waits for its outcome: the dialog closes on
 * success (the widget then shows its notice), or shows the refusal inside and stays open.
 * A notice left by an earlier action is no sign of this one's success, hence the dialog.
 */
async function confirmWidgetDialog(page: Page, confirmTestId: string): Promise<WidgetOutcome> {
  await page.getByTestId(confirmTestId).click()
  const refusalSelector = `[data-testid="${confirmTestId}-error"]`
  await page.waitForFunction(
    (selector) => document.querySelector(selector) !== null || document.querySelector('[role="alertdialog"]') === null,
    refusalSelector,
    { timeout: ACTION_TIMEOUT_MS },
  )
  const refusal = page.locator(refusalSelector)
  if (await refusal.isVisible()) return { refusal: await textOf(refusal) }
  const notice = page.getByTestId("nexi-notice")
  await notice.waitFor()
  return { notice: await textOf(notice) }
}

/** Confirms the widget's open "Cancel capture" dialog and waits for its outcome. */
export async function confirmWidgetCancelCapture(page: Page): Promise<WidgetOutcome> {
  return confirmWidgetDialog(page, "nexi-cancel-capture-confirm")
}

/** The widget's amount actions, by the prefix of their test ids (docs/admin.md). */
export type WidgetAmountAction = "capture" | "refund"

/** Whether the widget offers "Capture…" / "Refund…" for the payment now. */
export async function widgetOffers(page: Page, action: WidgetAmountAction): Promise<boolean> {
  return (await page.getByTestId(`nexi-${action}`).count()) === 1
}

/** Opens the widget's "Capture…" or "Refund…" dialog; answers the amount it proposes (what is left). */
export async function openWidgetAmountDialog(page: Page, action: WidgetAmountAction): Promise<string> {
  await page.getByTestId(`nexi-${action}`).click()
  const amount = page.getByTestId(`nexi-${action}-amount`)
  await amount.waitFor()
  return amount.inputValue()
}

/** Types the amount (and the refund's note) into the open dialog and confirms; waits for the outcome. */
export async function confirmWidgetAmount(
  page: Page,
  action: WidgetAmountAction,
  amount: string,
  note?: string,
): Promise<WidgetOutcome> {
  await page.getByTestId(`nexi-${action}-amount`).fill(amount)
  if (note !== undefined) await page.getByTestId("nexi-refund-note").fill(note)
  return confirmWidgetDialog(page, `nexi-${action}-confirm`)
}

/** The label of the open dialog's confirm button, which names the amount it will move ("Capture €12.34"). */
export async function widgetConfirmLabel(page: Page, action: WidgetAmountAction): Promise<string> {
  return textOf(page.getByTestId(`nexi-${action}-confirm`))
}

/** Closes the open widget dialog with its "Cancel" button. */
export async function dismissWidgetDialog(page: Page): Promise<void> {
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel", exact: true }).click()
  await page.getByRole("alertdialog").waitFor({ state: "hidden" })
}

/** The same order in a second tab of the same signed-in browser, as a colleague would have it open. */
export async function openOrderInNewTab(page: Page): Promise<Page> {
  const tab = await page.context().newPage()
  await tab.goto(page.url())
  await widgetLoaded(tab)
  return tab
}

/**
 * Staff collect what an order owes with a Nexi payment link, in the demo's Medusa admin,
 * headless Chromium (issue 26): an order whose payment was captured gets one more item by an
 * order edit; staff open the order, press "Payment link", choose the days, and copy the link;
 * the customer, a guest, opens it in a browser of their own, pays on the gateway's page and
 * lands on the storefront's page for links, which says it is paid (issue 41); the order's
 * Nexi section then shows the link paid, and Medusa's order holds the link's payment.
 * Every step is saved as a screenshot under browser-tests/screenshots/<test>/.
 *
 * Run by demo-admin.spec.ts, on its demo: a demo with its admin takes minutes to start.
 */

import { eventually } from "../../integration-tests/support/store"
import {
  openOrder,
  openSignInPage,
  orderInList,
  reloadOrder,
  type StaffSession,
  signIn,
  transitionsEnded,
} from "../support/admin-dashboard"
import { placeCardOrder } from "../support/admin-store-order"
import { textOf } from "../support/demo-storefront"
import { stepScreenshots } from "../support/step-screenshots"

export function paymentLinkTests(staff: () => StaffSession): void {
  /** Medusa's admin API with the signed-in browser's session, as the dashboard calls it. */
  async function admin(method: "GET" | "POST", path: string, data?: unknown): Promise<any> {
    const { demo, page } = staff()
    const url = `${demo.urls.backend}${path}`
    const answer = method === "GET" ? await page.request.get(url) : await page.request.post(url, { data: data ?? {} })
    if (!answer.ok()) throw new Error(`${method} ${path} answered ${answer.status()}: ${await answer.text()}`)
    return answer.json()
  }

  async function paymentsOf(orderId: string): Promise<Array<{ id: string; amount: number; data: any }>> {
    const { order } = await admin(
      "GET",
      `/admin/orders/${orderId}?fields=id,payment_collections.payments.id,payment_collections.payments.amount,payment_collections.payments.data`,
    )
    return order.payment_collections.flatMap((collection: any) => collection.payments)
  }

  it("creates a payment link for what an order edit left to pay, and shows it paid once the customer pays it in a browser", async () => {
    const { demo, page } = staff()
    const shot = stepScreenshots("payment-link-admin")
    const order = await placeCardOrder(demo, "espresso-cups")

    await openSignInPage(page, demo)
    await signIn(page, demo)
    // The first payment captured, then one more cup added by an order edit: the order owes one cup.
    const [first] = await paymentsOf(order.orderId)
    await admin("POST", `/admin/payments/${first.id}/capture`)
    const { order: withItems } = await admin("GET", `/admin/orders/${order.orderId}?fields=items.variant_id`)
    await admin("POST", "/admin/order-edits", { order_id: order.orderId })
    await admin("POST", `/admin/order-edits/${order.orderId}/items`, {
      items: [{ variant_id: withItems.items[0].variant_id, quantity: 1 }],
    })
    await admin("POST", `/admin/order-edits/${order.orderId}/request`)
    await admin("POST", `/admin/order-edits/${order.orderId}/confirm`)

    await page.goto(`${demo.urls.admin}/orders`)
    await openOrder(page, await orderInList(page, order.displayId))
    const section = page.getByTestId("nexi-payment-links")
    await section.scrollIntoViewIfNeeded()
    await section.getByTestId("nexi-link-new").click()
    const days = page.getByTestId("nexi-link-days")
    await expect(days.inputValue()).resolves.toBe("7")
    await days.fill("14")
    await transitionsEnded(page)
    await shot(page, "payment-link-dialog")
    await page.getByTestId("nexi-link-create").click()

    const link = section.getByTestId("nexi-link").first()
    const url = link.getByTestId("nexi-link-url")
    await url.waitFor({ timeout: 60_000 })
    await expect(url.inputValue()).resolves.toMatch(/^http/)
    await expect(link.getByTestId("nexi-link-state").textContent()).resolves.toBe("open")
    await expect(page.getByTestId("nexi-notice").textContent()).resolves.toMatch(/^Payment link for 29\.89 EUR created/)
    await shot(page, "payment-link-open")

    // The customer, a guest in a browser of their own, pays on the gateway's page and is sent
    // back to the storefront's page for links (paymentLinkResultUrl), which says it is paid.
    const customer = await page.context().browser()!.newContext({ locale: "en-GB" })
    try {
      const customerPage = await customer.newPage()
      await customerPage.goto(await url.inputValue())
      await customerPage.fill("#pan", "4999 3402 6197 7289")
      await customerPage.fill("#expiry", "12/30")
      await customerPage.fill("#cvv", "663")
      await shot(customerPage, "payment-link-customer-card")
      await Promise.all([
        customerPage.waitForURL((address) => address.pathname === "/nexi/payment-link"),
        customerPage.click("#pay"),
      ])
      const back = new URL(customerPage.url())
      expect(back.origin).toBe(new URL(demo.urls.storefront).origin)
      expect(back.searchParams.get("order_id")).toBe(order.orderId)
      const outcome = customerPage.getByTestId("payment-link-outcome")
      await outcome.waitFor()
      await expect(outcome.getAttribute("data-status")).resolves.toBe("paid")
      await expect(outcome.textContent()).resolves.toBe("Thank you: your payment is received")
      await expect(textOf(customerPage.getByTestId("payment-link-reason"))).resolves.toBe("EUR 29.89 paid.")
      await shot(customerPage, "payment-link-customer-paid")
    } finally {
      await customer.close()
    }

    // The link's notification reaches Medusa some seconds after the payment.
    const linkPayment = await eventually(
      async () => (await paymentsOf(order.orderId)).find((payment) => payment.data?.staff_channel === "payment_link"),
      { timeoutMs: 90_000, intervalMs: 2_000 },
    )
    expect(linkPayment.amount).toBe(29.89)
    await reloadOrder(page)
    const state = page.getByTestId("nexi-payment-links").getByTestId("nexi-link-state").first()
    await state.scrollIntoViewIfNeeded()
    await expect(state.textContent()).resolves.toBe("paid")
    await expect(page.getByTestId("nexi-payment-links").getByTestId("nexi-link-url").count()).resolves.toBe(0)
    await shot(page, "payment-link-paid")
  })
}

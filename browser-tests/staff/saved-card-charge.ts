/**
 * Staff press "Charge saved card" in the demo's Medusa admin, headless Chromium (issue 26): a
 * customer saved their card at checkout allowing the shop to charge it later, staff edited the
 * order to add a second unit, and the order's Nexi section offers to charge the card for what the
 * order owes. The charge goes through POST /orders/mit; the widget shows the result at once, the
 * gateway holds the authorization, and the order owes nothing more (the action is gone). The
 * customer's page then shows the saved card in its side column (issue 41).
 * Every step is saved as a screenshot under browser-tests/screenshots/<test>/.
 *
 * Run by demo-admin.spec.ts, on its demo: a demo with its admin takes minutes to start.
 */
import { randomUUID } from "node:crypto"
import type { APIRequestContext } from "playwright-core"
import { CARDS } from "../../integration-tests/support/checkout-kit"
import { ADDRESS, NEXI_CARD_PROVIDER, storeHeaders } from "../../integration-tests/support/store"
import {
  openSignInPage,
  type StaffSession,
  signIn,
  transitionsEnded,
  widgetPlacement,
} from "../support/admin-dashboard"
import { stepScreenshots } from "../support/step-screenshots"

export function savedCardChargeTests(staff: () => StaffSession): void {
  /** The store API as a logged-in customer's storefront calls it; a non-2xx answer throws with its body. */
  async function store(path: string, body: unknown, token?: string): Promise<any> {
    const { demo } = staff()
    const answer = await fetch(`${demo.urls.backend}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...storeHeaders(demo.publishableKey).headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    })
    const text = await answer.text()
    if (!answer.ok) throw new Error(`POST ${path} answered ${answer.status}: ${text}`)
    return JSON.parse(text)
  }

  /** The admin API with the signed-in browser's session. */
  async function admin(request: APIRequestContext, method: "GET" | "POST", path: string, data?: unknown) {
    const { demo } = staff()
    const answer = await request.fetch(`${demo.urls.backend}${path}`, { method, data })
    if (!answer.ok()) throw new Error(`${method} ${path} answered ${answer.status()}: ${await answer.text()}`)
    return answer.json()
  }

  /**
   * A registered customer buys one espresso cup set, saving the card with consent to merchant
   * charges; staff capture the payment, then edit the order to add a second set, which Medusa
   * leaves owed on a new payment collection.
   */
  async function editedOrderOfConsentingCustomer(request: APIRequestContext) {
    const { demo } = staff()
    const email = `mit-${randomUUID().slice(0, 8)}@example.com`
    const password = `pw-${randomUUID()}`
    const { token: registered } = await store("/auth/customer/emailpass/register", { email, password })
    await store("/store/customers", { email, first_name: "Giulia", last_name: "Rossi" }, registered)
    const { token } = await store("/auth/customer/emailpass", { email, password })

    const region = demo.regions.find((candidate) => candidate.currency_code === "eur")
    const product = demo.products.find((candidate) => candidate.handle === "espresso-cups")
    if (!region || !product) throw new Error("the demo has no eur region or no espresso cups")
    const productAnswer = await fetch(
      `${demo.urls.backend}/store/products/${product.id}?region_id=${region.id}`,
      storeHeaders(demo.publishableKey),
    )
    const variantId: string = (await productAnswer.json()).product.variants[0].id
    const { cart } = await store(
      "/store/carts",
      {
        region_id: region.id,
        email,
        items: [{ variant_id: variantId, quantity: 1 }],
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      },
      token,
    )
    const { payment_collection } = await store("/store/payment-collections", { cart_id: cart.id }, token)
    const withSession = await store(
      `/store/payment-collections/${payment_collection.id}/payment-sessions`,
      { provider_id: NEXI_CARD_PROVIDER, data: { save_card: true, allow_merchant_charges: true } },
      token,
    )
    const session = withSession.payment_collection.payment_sessions[0]
    const paid = await fetch(`${demo.urls.simulatorControl}/hpp/${session.data.order_id}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...CARDS.approved, awaitNotification: true }),
    })
    expect(((await paid.json()) as { result: string }).result).toBe("AUTHORIZED")
    const completed = await store(`/store/carts/${cart.id}/complete`, {}, token)
    expect(completed.type).toBe("order")
    const orderId: string = completed.order.id

    const { order } = await admin(request, "GET", `/admin/orders/${orderId}?fields=*payment_collections.payments`)
    await admin(request, "POST", `/admin/payments/${order.payment_collections[0].payments[0].id}/capture`, {})
    await admin(request, "POST", "/admin/order-edits", { order_id: orderId })
    await admin(request, "POST", `/admin/order-edits/${orderId}/items`, {
      items: [{ variant_id: variantId, quantity: 1 }],
    })
    await admin(request, "POST", `/admin/order-edits/${orderId}/request`, {})
    await admin(request, "POST", `/admin/order-edits/${orderId}/confirm`, {})
    return { orderId, displayId: completed.order.display_id as number }
  }

  it("charges the customer's consented saved card for what an edited order owes, and shows the charge at once", async () => {
    const { demo, gateway, page } = staff()
    const shot = stepScreenshots("saved-card-charge")
    await openSignInPage(page, demo)
    await signIn(page, demo)
    const { orderId, displayId } = await editedOrderOfConsentingCustomer(page.request)

    // The order list was read at sign-in, before the order existed: open the order's page by its address.
    await page.goto(`${demo.urls.admin}/orders/${orderId}`)
    await page.getByTestId("nexi-operation-row").first().waitFor({ timeout: 60_000 })
    await page.getByTestId("nexi-order-payment").scrollIntoViewIfNeeded()
    await expect(page.getByText(`#${displayId}`).first().isVisible()).resolves.toBe(true)
    const action = page.getByTestId("nexi-charge-saved-card")
    await action.waitFor()
    await expect(page.getByTestId("nexi-saved-card-charge").textContent()).resolves.toContain("owes €29.89")
    await action.click()
    await expect(page.getByTestId("nexi-charge-saved-card-amount").inputValue()).resolves.toBe("29.89")
    const option = page.getByTestId("nexi-charge-saved-card-option")
    await expect(option.count()).resolves.toBe(1)
    await expect(option.isChecked()).resolves.toBe(true)
    await expect(page.getByTestId("nexi-charge-saved-card-confirm").textContent()).resolves.toBe("Charge €29.89")
    await transitionsEnded(page)
    await shot(page, "charge-dialog")

    await page.getByTestId("nexi-charge-saved-card-confirm").click()
    const notice = page.getByTestId("nexi-notice")
    await notice.waitFor()
    const message = (await notice.textContent()) ?? ""
    expect(message).toMatch(
      /^Charged 29\.89 EUR to VISA \*+7289 \(gateway order \w+\): authorized; capture it from the order's payments\.$/,
    )
    await transitionsEnded(page)
    await shot(page, "charged")
    const gatewayOrderId = /gateway order (\w+)/.exec(message)?.[1] ?? ""
    await expect(gateway.amounts(gatewayOrderId)).resolves.toEqual({ authorized: "2989", captured: "0", refunded: "0" })

    // The order owes nothing now: after a reload the section offers no charge, and Medusa holds the payment.
    const optionsRead = page.waitForResponse((answer) => answer.url().includes(`/${orderId}/saved-card-charges`))
    await page.reload()
    await optionsRead
    await page.getByTestId("nexi-order-payment").waitFor()
    await expect(page.getByTestId("nexi-charge-saved-card").count()).resolves.toBe(0)
    const { order } = await admin(
      page.request,
      "GET",
      `/admin/orders/${orderId}?fields=customer_id,*payment_collections.payments`,
    )
    const payments = order.payment_collections.flatMap((collection: { payments: unknown[] }) => collection.payments)
    expect(payments).toHaveLength(2)

    // The customer's page shows the saved card high up, in the side column beside the orders,
    // not at the very bottom under Metadata and JSON.
    await page.goto(`${demo.urls.admin}/customers/${order.customer_id}`)
    const savedCards = page.getByTestId("nexi-customer-saved-cards")
    await savedCards.waitFor({ timeout: 60_000 })
    await expect(savedCards.getByTestId("nexi-saved-card-row").count()).resolves.toBe(1)
    await expect(widgetPlacement(page, "nexi-customer-saved-cards", "Orders")).resolves.toEqual({
      besideMain: true,
      aboveJson: true,
    })
    await transitionsEnded(page)
    await shot(page, "customer-saved-cards")
  })
}

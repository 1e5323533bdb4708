/**
 * A mobile payment: the shopper approves it in their app; this page polls the plugin's status
 * route, which reads the payment again and, once it is approved, completes the cart on the
 * server. The simulator's phone page stands in for the app in the demo.
 */
import { readCart } from "../cart.js"
import { remembered } from "../cart-store.js"
import { alertBox, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { failed, failureMessage, paymentStatus } from "../payments.js"

const POLL_MS = 2_000

function waitingPage(cart, approvalUrl) {
  return [
    h("h1", {}, "Approve the payment in your app"),
    h(
      "p",
      { "data-testid": "waiting" },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      `We sent a payment request of ${formatMoney(cart.total, cart.currency_code)} to your phone. This page moves on by itself once you approve it.`,
    ),
    approvalUrl
      ? alertBox(
          "info",
          h(
            "span",
            {},
            "Demo: the gateway simulator plays the phone. ",
            h(
              "a",
              { href: approvalUrl, target: "_blank", rel: "noopener", "data-testid": "phone-link" },
              "Open the simulated app",
            ),
            " and approve or reject there.",
          ),
          "demo-phone",
        )
      : null,
  ]
}

export async function mobileApprovalView(context) {
  const cartId = context.params.get("cart_id")
  const sessionId = context.params.get("session_id")
  const cart = await readCart(context.api, cartId)
  let shownUrl
  for (;;) {
    let status
    try {
      status = await paymentStatus(context.api, cartId, sessionId)
    } catch (error) {
      // A failed poll is no answer: the payment may still be approved, so ask again.
      render(
        ...waitingPage(cart, shownUrl),
        alertBox("error", `Could not check the payment (${error.message}); trying again.`),
      )
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      continue
    }
    if (status.order_id) {
      remembered.forgetCart()
      location.assign(`/order?id=${encodeURIComponent(status.order_id)}`)
      return
    }
    if (failed(status)) {
      render(
        h("h1", {}, "Payment not completed"),
        alertBox("error", failureMessage(status), "decline-reason"),
        h(
          "a",
          {
            class: "button",
            href: `/checkout?step=payment&cart_id=${encodeURIComponent(cartId)}`,
            "data-testid": "retry",
          },
          "Choose a way to pay",
        ),
      )
      return
    }
    const approvalUrl = status.payment_session.data?.approval_url
    if (approvalUrl !== shownUrl || !document.querySelector("[data-testid=waiting]")) {
      shownUrl = approvalUrl
      render(...waitingPage(cart, approvalUrl))
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

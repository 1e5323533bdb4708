/**
 * The provider's resultUrl: the shopper is back from the hosted payment page. Completing the
 * cart turns an authorized payment into the order (the gateway's notification may already
 * have done it; completing again answers the same order). When it does not, the payment
 * session says why: a decline is shown with its reason and the shopper tries again; a payment
 * the gateway has not decided yet is asked again in a moment.
 */
import { readCart } from "../cart.js"
import { remembered } from "../cart-store.js"
import { alertBox, h, render } from "../dom.js"
import { failed, failureMessage, nexiSessionOf, paymentStatus } from "../payments.js"
import { StoreApiError } from "../store-api.js"

const RETRY_MS = 2_000
const PATIENCE_MS = 60_000

/** Medusa answers a payment it could not authorize with 200 and the cart, or with an error status. */
async function completeCart(api, cartId) {
  try {
    return await api.post(`/store/carts/${encodeURIComponent(cartId)}/complete`)
  } catch (error) {
    if (!(error instanceof StoreApiError)) throw error
    return { type: "cart", error: { message: error.message } }
  }
}

function toOrder(orderId) {
  remembered.forgetCart()
  location.assign(`/order?id=${encodeURIComponent(orderId)}`)
}

export async function resultView(context) {
  const { api } = context
  const cartId = context.params.get("cart_id")
  render(
    h("h1", {}, "Checking your payment…"),
    h("p", {}, h("span", { class: "spinner", "aria-hidden": "true" }), "One moment, please."),
  )
  const giveUpAt = Date.now() + PATIENCE_MS
  for (;;) {
    const completed = await completeCart(api, cartId)
    if (completed.type === "order") return toOrder(completed.order.id)
    const session = nexiSessionOf(completed.cart ?? (await readCart(api, cartId)))
    const status = session ? await paymentStatus(api, cartId, session.id) : undefined
    if (status?.order_id) return toOrder(status.order_id)
    if (!status || failed(status) || Date.now() > giveUpAt) {
      render(
        h("h1", {}, "Payment not completed"),
        alertBox(
          "error",
          status ? failureMessage(status) : (completed.error?.message ?? "The cart could not be completed."),
          "decline-reason",
        ),
        h(
          "a",
          {
            class: "button",
            href: `/checkout?step=payment&cart_id=${encodeURIComponent(cartId)}`,
            "data-testid": "retry",
          },
          "Try again",
        ),
      )
      return
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
  }
}

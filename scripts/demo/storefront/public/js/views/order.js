/** The order confirmation. */
import { remembered } from "../cart-store.js"
import { alertBox, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { renderNav } from "../nav.js"

/**
 * What the order's payment status means for the shopper. An authorized payment is only
 * reserved on the card (captureType EXPLICIT: the shop captures it from the admin when it
 * ships), so its total is not "paid"; a captured one is.
 */
export function paymentWording(paymentStatus) {
  switch (paymentStatus) {
    case "authorized":
    case "partially_authorized":
      return {
        totalLabel: "Total authorized",
        explanation:
          "The amount is reserved on your card, not charged yet: the shop captures it when your order ships.",
      }
    case "captured":
      return { totalLabel: "Total paid", explanation: "Paid (captured)." }
    case "partially_captured":
      return { totalLabel: "Total", explanation: "Partly paid (captured); the rest is still reserved." }
    case "refunded":
    case "partially_refunded":
      return { totalLabel: "Total", explanation: paymentStatus === "refunded" ? "Refunded." : "Paid, partly refunded." }
    case "canceled":
      return { totalLabel: "Total", explanation: "The payment was cancelled: nothing is charged." }
    default:
      return { totalLabel: "Total", explanation: "" }
  }
}

export async function orderView(context) {
  const id = context.params.get("id")
  const fields = "id,display_id,email,currency_code,total,tax_total,payment_status,*items"
  const { order } = await context.api.get(
    `/store/orders/${encodeURIComponent(id)}?fields=${encodeURIComponent(fields)}`,
  )
  remembered.forgetCart()
  renderNav({})
  const money = (amount) => formatMoney(amount, order.currency_code)
  const wording = paymentWording(order.payment_status)
  render(
    h("h1", { "data-testid": "order-confirmation" }, "Thank you for your order"),
    alertBox("success", `Order #${order.display_id} is placed. A confirmation goes to ${order.email}.`, "order-placed"),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, "Item"), h("th", {}, "Qty"), h("th", { class: "amount" }, "Total"))),
      h(
        "tbody",
        {},
        order.items.map((item) =>
          h(
            "tr",
            {},
            h("td", {}, item.product_title ?? item.title),
            h("td", {}, String(item.quantity)),
            h("td", { class: "amount" }, money(item.subtotal ?? item.total)),
          ),
        ),
      ),
      h(
        "tfoot",
        {},
        h("tr", {}, h("td", { colspan: 2 }, "VAT"), h("td", { class: "amount" }, money(order.tax_total))),
        h(
          "tr",
          {},
          h("td", { colspan: 2, "data-testid": "order-total-label" }, wording.totalLabel),
          h("td", { class: "amount", "data-testid": "order-total" }, money(order.total)),
        ),
      ),
    ),
    h(
      "p",
      { class: "muted summary", "data-testid": "payment-status" },
      `Payment: ${order.payment_status.replaceAll("_", " ")}`,
    ),
    wording.explanation ? h("p", { class: "muted", "data-testid": "payment-explanation" }, wording.explanation) : null,
    h("a", { href: "/" }, "Back to the shop"),
  )
}

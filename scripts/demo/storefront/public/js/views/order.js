/** The order confirmation. */
import { remembered } from "../cart-store.js"
import { alertBox, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { renderNav } from "../nav.js"

export async function orderView(context) {
  const id = context.params.get("id")
  const fields = "id,display_id,email,currency_code,total,tax_total,payment_status,*items"
  const { order } = await context.api.get(`/store/orders/${encodeURIComponent(id)}?fields=${encodeURIComponent(fields)}`)
  remembered.forgetCart()
  renderNav({})
  const money = (amount) => formatMoney(amount, order.currency_code)
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
        order.items.map((item) => h("tr", {}, h("td", {}, item.product_title ?? item.title), h("td", {}, String(item.quantity)), h("td", { class: "amount" }, money(item.subtotal ?? item.total)))),
      ),
      h(
        "tfoot",
        {},
        h("tr", {}, h("td", { colspan: 2 }, "VAT"), h("td", { class: "amount" }, money(order.tax_total))),
        h("tr", {}, h("td", { colspan: 2 }, "Total paid"), h("td", { class: "amount", "data-testid": "order-total" }, money(order.total))),
      ),
    ),
    h("p", { class: "muted summary", "data-testid": "payment-status" }, `Payment: ${order.payment_status.replaceAll("_", " ")}`),
    h("a", { href: "/" }, "Back to the shop"),
  )
}

/** The header: the region (and so the currency) on the shop page, the cart with its item count, and the account. */
import { isLoggedIn } from "./customer.js"
import { h } from "./dom.js"

/** "My account" for a logged-in customer; "Log in" for a guest, back to this page afterwards. */
function accountLink() {
  if (isLoggedIn()) return h("a", { href: "/account", "data-testid": "account-link" }, "My account")
  const here = `${location.pathname}${location.search}`
  return h("a", { href: `/account/login?next=${encodeURIComponent(here)}`, "data-testid": "account-link" }, "Log in")
}

export function renderNav({ regions, regionId, onRegionChange, cart }) {
  const nav = document.getElementById("nav")
  const items = []
  if (regions) {
    items.push(
      h(
        "select",
        { "aria-label": "Region", "data-testid": "region", onchange: (event) => onRegionChange(event.target.value) },
        regions.map((region) => h("option", { value: region.id, selected: region.id === regionId }, `${region.name}`)),
      ),
    )
  }
  const count = (cart?.items ?? []).reduce((sum, item) => sum + Number(item.quantity), 0)
  if (cart && !cart.completed_at) {
    items.push(
      h(
        "a",
        { href: `/checkout?step=cart&cart_id=${encodeURIComponent(cart.id)}`, "data-testid": "cart-link" },
        `Cart (${count})`,
      ),
    )
  }
  items.push(accountLink())
  nav.replaceChildren(...items)
}

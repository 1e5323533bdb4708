/** The header: the region (and so the currency) on the shop page, and the cart with its item count. */
import { h } from "./dom.js"

export function renderNav({ regions, regionId, onRegionChange, cart }) {
  const nav = document.getElementById("nav")
  const items = []
  if (regions) {
    items.push(
      h(
        "select",
        { "aria-label": "Region", "data-testid": "region", onchange: (event) => onRegionChange(event.target.value) },
        regions.map((region) =>
          h("option", { value: region.id, selected: region.id === regionId }, `${region.name}`),
        ),
      ),
    )
  }
  const count = (cart?.items ?? []).reduce((sum, item) => sum + Number(item.quantity), 0)
  if (cart && !cart.completed_at) {
    items.push(h("a", { href: `/checkout?step=cart&cart_id=${encodeURIComponent(cart.id)}`, "data-testid": "cart-link" }, `Cart (${count})`))
  }
  nav.replaceChildren(...items)
}

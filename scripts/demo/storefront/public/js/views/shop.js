/** The product list of the chosen region, with prices in its currency. */
import { cartInRegion, openCart } from "../cart.js"
import { remembered } from "../cart-store.js"
import { busy, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { renderNav } from "../nav.js"

function initials(title) {
  return title
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("")
}

function productCard(context, product, regionId) {
  const variant = product.variants[0]
  const price = variant?.calculated_price
  const button = h("button", { type: "button", "data-testid": "add-to-cart" }, "Add to cart")
  button.addEventListener("click", () =>
    busy(button, async () => {
      const cart = await cartInRegion(context.api, regionId)
      await context.api.post(`/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 })
      location.assign(`/checkout?step=cart&cart_id=${encodeURIComponent(cart.id)}`)
    }),
  )
  return h(
    "article",
    { class: "card product", "data-testid": "product", "data-handle": product.handle },
    h("div", { class: "picture", "aria-hidden": "true" }, initials(product.title)),
    h("h3", {}, product.title),
    h("p", {}, product.description ?? ""),
    h(
      "div",
      { class: "row" },
      h(
        "span",
        { class: "price", "data-testid": "price" },
        price ? formatMoney(price.calculated_amount, price.currency_code) : "—",
      ),
      button,
    ),
  )
}

export async function shopView(context) {
  const { api } = context
  const { regions } = await api.get("/store/regions")
  const cart = await openCart(api)
  const wanted = context.params.get("region_id") ?? cart?.region_id ?? remembered.regionId()
  const region = regions.find((candidate) => candidate.id === wanted) ?? regions[0]
  remembered.setRegionId(region.id)
  renderNav({
    regions,
    regionId: region.id,
    cart,
    onRegionChange: (regionId) => {
      remembered.setRegionId(regionId)
      location.assign(`/?region_id=${encodeURIComponent(regionId)}`)
    },
  })
  const fields = "id,title,handle,description,*variants.calculated_price"
  const { products } = await api.get(
    `/store/products?region_id=${encodeURIComponent(region.id)}&fields=${encodeURIComponent(fields)}&order=title`,
  )
  render(
    h("h1", {}, "Coffee things"),
    h(
      "p",
      { class: "muted" },
      `Prices in ${region.currency_code.toUpperCase()}, before VAT. Sold to: ${(region.countries ?? []).map((country) => country.display_name).join(", ")}.`,
    ),
    h(
      "div",
      { class: "grid" },
      products.map((product) => productCard(context, product, region.id)),
    ),
  )
}

/**
 * The checkout, one step per ?step=: cart, address, payment, and card when the card is typed
 * in the gateway's fields in this page (card-fields.js). The payment step is also the
 * provider's cancelUrl: a shopper back from the hosted page sees why the last attempt ended
 * and picks a way to pay again. A logged-in customer also gets their saved cards and "Save my
 * card" there (saved-card-choices.js).
 */
import { readCart } from "../cart.js"
import { alertBox, busy, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { renderNav } from "../nav.js"
import { failed, failureMessage, nexiSessionOf, paymentStatus, startPaymentSession } from "../payments.js"
import { cardFieldsOption, cardFieldsStep } from "./card-fields.js"
import { cardSessionData, saveCardField, savedCardOption, usableSavedCards } from "./saved-card-choices.js"

const STEPS = ["cart", "address", "payment"]

/** Sample shoppers, so the demo is a few clicks; every field can be changed. */
const SAMPLE_ADDRESSES = {
  eur: {
    first_name: "Giulia",
    last_name: "Rossi",
    address_1: "Via Roma 1",
    city: "Milano",
    postal_code: "20121",
    country_code: "it",
    phone: "+39021234567",
  },
  jpy: {
    first_name: "Haruto",
    last_name: "Sato",
    address_1: "1-1 Chiyoda",
    city: "Tokyo",
    postal_code: "100-0001",
    country_code: "jp",
    phone: "+81312345678",
  },
}

function hasAddress(cart) {
  return Boolean(cart.shipping_address?.address_1)
}

function stepUrl(cart, step) {
  return `/checkout?step=${step}&cart_id=${encodeURIComponent(cart.id)}`
}

function stepBar(current) {
  return h(
    "div",
    { class: "steps" },
    STEPS.map((step, index) =>
      h("span", { class: step === current ? "current" : "" }, `${index + 1}. ${step[0].toUpperCase()}${step.slice(1)}`),
    ).flatMap((element, index) => (index ? [h("span", {}, "›"), element] : [element])),
  )
}

function removeButton(api, cart, item) {
  const button = h(
    "button",
    { type: "button", class: "link", "aria-label": `Remove ${item.product_title ?? item.title}` },
    " remove",
  )
  button.addEventListener("click", () =>
    busy(button, async () => {
      await api.delete(`/store/carts/${cart.id}/line-items/${item.id}`)
      location.reload()
    }),
  )
  return button
}

function totalsTable(cart, { removable, api } = {}) {
  const money = (amount) => formatMoney(amount, cart.currency_code)
  const rows = cart.items.map((item) =>
    h(
      "tr",
      { "data-testid": "cart-line" },
      h("td", {}, item.product_title ?? item.title),
      h("td", {}, String(item.quantity)),
      h("td", { class: "amount" }, money(item.unit_price)),
      h(
        "td",
        { class: "amount" },
        money(item.subtotal ?? item.unit_price * item.quantity),
        removable ? removeButton(api, cart, item) : null,
      ),
    ),
  )
  return h(
    "table",
    {},
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "Item"),
        h("th", {}, "Qty"),
        h("th", { class: "amount" }, "Price"),
        h("th", { class: "amount" }, "Total"),
      ),
    ),
    h("tbody", {}, rows),
    h(
      "tfoot",
      {},
      h("tr", {}, h("td", { colspan: 3 }, "VAT"), h("td", { class: "amount" }, money(cart.tax_total))),
      h(
        "tr",
        {},
        h("td", { colspan: 3 }, "Total"),
        h("td", { class: "amount", "data-testid": "cart-total" }, money(cart.total)),
      ),
    ),
  )
}

function cartStep(context, cart) {
  if (!cart.items.length) {
    render(stepBar("cart"), h("h1", {}, "Your cart is empty"), h("a", { href: "/" }, "Back to the shop"))
    return
  }
  render(
    stepBar("cart"),
    h("h1", {}, "Your cart"),
    totalsTable(cart, { removable: true, api: context.api }),
    h(
      "div",
      { class: "row" },
      h("a", { href: "/" }, "Continue shopping"),
      h("a", { class: "button", href: stepUrl(cart, "address"), "data-testid": "to-address" }, "Continue to address"),
    ),
  )
}

function field(name, label, value, { type = "text", wide = false, required = true } = {}) {
  return h(
    "div",
    { class: wide ? "wide" : "" },
    h("label", { for: name }, label),
    h("input", { id: name, name, type, value: value ?? "", required }),
  )
}

function addressStep(context, cart) {
  const sample = SAMPLE_ADDRESSES[cart.currency_code] ?? SAMPLE_ADDRESSES.eur
  // Medusa gives a cart in a one-country region an address with only that country: not the shopper's yet.
  const current = hasAddress(cart) ? cart.shipping_address : sample
  const countries = cart.region?.countries ?? []
  const form = h(
    "form",
    { class: "address", "data-testid": "address-form" },
    field("email", "Email", cart.email ?? "shopper@example.com", { type: "email", wide: true }),
    field("first_name", "First name", current.first_name),
    field("last_name", "Last name", current.last_name),
    field("address_1", "Address", current.address_1, { wide: true }),
    field("postal_code", "Postal code", current.postal_code),
    field("city", "City", current.city),
    h(
      "div",
      {},
      h("label", { for: "country_code" }, "Country"),
      h(
        "select",
        { id: "country_code", name: "country_code" },
        countries.map((country) =>
          h(
            "option",
            { value: country.iso_2, selected: country.iso_2 === (current.country_code ?? sample.country_code) },
            country.display_name,
          ),
        ),
      ),
    ),
    field("phone", "Phone", current.phone, { type: "tel", required: false }),
    h(
      "div",
      { class: "wide row" },
      h("a", { href: stepUrl(cart, "cart") }, "Back to the cart"),
      h("button", { type: "submit", "data-testid": "to-payment" }, "Continue to payment"),
    ),
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const values = Object.fromEntries(new FormData(form))
    const { email, ...address } = values
    busy(event.submitter, async () => {
      await context.api.post(`/store/carts/${cart.id}`, { email, shipping_address: address, billing_address: address })
      location.assign(stepUrl(cart, "payment"))
    })
  })
  render(stepBar("address"), h("h1", {}, "Where do we send it?"), form)
}

function methodOption(method, checked) {
  return h(
    "label",
    { class: "method", "data-testid": "payment-method", "data-provider": method.provider_id },
    h("input", { type: "radio", name: "provider_id", value: method.provider_id, "data-kind": method.kind, checked }),
    h("img", { src: method.logo_url, alt: "" }),
    h("span", {}, method.name),
    h("span", { class: "kind" }, method.kind === "card" ? "hosted payment page" : "approve in your app"),
  )
}

/** Google Pay or Apple Pay, offered with a card method: a card session whose page shows only that wallet's button. */
function walletOption(method, { wallet, name }) {
  return h(
    "label",
    { class: "method", "data-testid": "wallet-method", "data-wallet": wallet },
    h("input", {
      type: "radio",
      name: "provider_id",
      value: method.provider_id,
      "data-kind": "wallet",
      "data-wallet": wallet,
    }),
    h("span", {}, name),
    h("span", { class: "kind" }, "on the gateway's page"),
  )
}

/** Why the last attempt ended, when the shopper is back on this step after one. */
async function lastAttemptNotice(context, cart) {
  const session = nexiSessionOf(cart)
  if (!session) return null
  const status = await paymentStatus(context.api, cart.id, session.id)
  if (status.order_id) {
    location.assign(`/order?id=${encodeURIComponent(status.order_id)}`)
    return null
  }
  return failed(status)
    ? alertBox("error", `${failureMessage(status)} Choose a way to pay to try again.`, "decline-reason")
    : null
}

async function paymentStep(context, cart) {
  const { api } = context
  const notice = await lastAttemptNotice(context, cart)
  const { payment_methods: listed } = await api.get(
    `/store/nexi/payment-methods?region_id=${encodeURIComponent(cart.region_id)}`,
  )
  // Cards first: most shoppers pay by card; the mobile schemes follow in the route's order.
  const methods = [
    ...listed.filter((method) => method.kind === "card"),
    ...listed.filter((method) => method.kind !== "card"),
  ]
  // A customer's saved cards come before everything, the newest chosen: paying is then one CVV.
  const savedCards = await usableSavedCards(api, methods)
  const options = [
    ...savedCards.map((card, index) => savedCardOption(card, index === 0)),
    // A card method twice: on the hosted page, or typed in the gateway's fields in this shop (XPay Build).
    ...methods.flatMap((method, index) => [
      methodOption(method, !savedCards.length && index === 0),
      ...(method.kind === "card" ? [cardFieldsOption(method)] : []),
      ...(method.wallets ?? []).map((wallet) => walletOption(method, wallet)),
    ]),
  ]
  const saveCard = saveCardField()
  const phone = h(
    "div",
    { "data-testid": "mobile-fields", hidden: true },
    h("label", { for: "consumer_id" }, "Mobile number registered with the app"),
    h("input", {
      id: "consumer_id",
      name: "consumer_id",
      type: "tel",
      placeholder: "+39 333 123 4567",
      autocomplete: "tel",
    }),
  )
  const payButton = h(
    "button",
    { type: "submit", "data-testid": "pay" },
    `Pay ${formatMoney(cart.total, cart.currency_code)}`,
  )
  const form = h(
    "form",
    { "data-testid": "payment-form" },
    h("div", { class: "methods" }, options),
    saveCard,
    phone,
    h("div", { class: "row" }, h("a", { href: stepUrl(cart, "address") }, "Back to the address"), payButton),
  )
  const chosen = () => form.querySelector("input[name=provider_id]:checked")
  const showFields = () => {
    phone.hidden = chosen()?.dataset.kind !== "mobile"
    if (saveCard) saveCard.hidden = !["card", "card-fields"].includes(chosen()?.dataset.kind)
  }
  form.addEventListener("change", showFields)
  showFields()
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const method = chosen()
    if (!method) return
    busy(payButton, async () => {
      if (method.dataset.kind === "mobile") {
        const consumerId = form.consumer_id.value.replace(/[\s-]/g, "")
        if (!consumerId) throw new Error("Mobile number: enter the number your payment app is registered with.")
        const session = await startPaymentSession(api, cart, method.value, { consumer_id: consumerId })
        location.assign(
          `/checkout/mobile?cart_id=${encodeURIComponent(cart.id)}&session_id=${encodeURIComponent(session.id)}`,
        )
        return
      }
      if (method.dataset.kind === "card-fields") {
        await startPaymentSession(api, cart, method.value, { ...cardSessionData(form, method), integration: "build" })
        location.assign(stepUrl(cart, "card"))
        return
      }
      const session = await startPaymentSession(api, cart, method.value, cardSessionData(form, method))
      location.assign(session.data.hosted_page)
    })
  })
  render(
    stepBar("payment"),
    h("h1", {}, "Payment"),
    notice,
    totalsTable(cart),
    h("h2", {}, "How would you like to pay?"),
    methods.length
      ? form
      : alertBox("error", "This region has no Nexi payment method enabled (admin: Settings, Regions)."),
  )
}

export async function checkoutView(context) {
  const cartId = context.params.get("cart_id")
  if (!cartId) {
    location.assign("/")
    return
  }
  const cart = await readCart(context.api, cartId)
  renderNav({ cart })
  if (cart.completed_at) {
    render(h("h1", {}, "This cart is already an order"), h("a", { href: "/" }, "Back to the shop"))
    return
  }
  const step = context.params.get("step") ?? "cart"
  if (step === "payment" && !hasAddress(cart)) return location.assign(stepUrl(cart, "address"))
  if (step === "address") return addressStep(context, cart)
  if (step === "payment") return paymentStep(context, cart)
  if (step === "card") return cardFieldsStep(context, cart, stepUrl(cart, "payment"))
  return cartStep(context, cart)
}

/**
 * The card typed in the gateway's own fields inside this shop's page (XPay Build), run by the
 * storefront kit's plain functions (storefront/, served compiled at /kit/): the payment step
 * offers it beside the hosted page, creates the session with `integration: "build"` and comes
 * here (?step=card). The shopper pays without leaving the shop unless 3-D Secure asks for a
 * challenge; then the bank's page, and back to the result page. The SDK is loaded with the
 * integrity the demo read from the gateway (GET /build/integrity), under the page's Content
 * Security Policy (storefront-server.js).
 */
import {
  cardFieldsOf,
  finalizeCardPayment,
  hasCardFields,
  resolveReturn,
  startCardPayment,
  storeClientFromFetch,
} from "/kit/index.js"
import { remembered } from "../cart-store.js"
import { customerToken } from "../customer.js"
import { alertBox, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { nexiSessionOf } from "../payments.js"

const TITLES = {
  CARD_NUMBER: "Card number",
  EXPIRATION_DATE: "Expiry (MM/YY)",
  SECURITY_CODE: "CVV",
  CARDHOLDER_NAME: "Name on the card",
}

const NOTICES = {
  service_unavailable: "The payment service is temporarily unavailable: try again.",
  no_answer: "The card fields did not answer: try again.",
  card_refused: "The card was not accepted: check the details and try again.",
  store_error: "The shop could not take the payment just now: try again.",
}

/** The card fields among the ways to pay: the card method's session, opened for the fields. */
export function cardFieldsOption(method) {
  return h(
    "label",
    { class: "method", "data-testid": "card-fields-method" },
    h("input", { type: "radio", name: "provider_id", value: method.provider_id, "data-kind": "card-fields" }),
    h("img", { src: method.logo_url, alt: "" }),
    h("span", {}, method.name),
    h("span", { class: "kind" }, "card details in this page"),
  )
}

/** What the status line says for a state, and whether the shopper goes back to choose again. */
function describe(state) {
  switch (state.status) {
    case "loading":
      return { text: "Loading the secure card fields…" }
    case "ready":
    case "invalid":
      return {
        text: [state.status === "invalid" ? "Check the card details marked." : "", NOTICES[state.notice?.code] ?? ""]
          .filter(Boolean)
          .join(" "),
      }
    case "paying":
      return { text: "Paying…" }
    case "challenge":
      return { text: "Your bank asks you to confirm the payment: taking you there…" }
    case "paid":
      return { text: "Paid: your order is placed." }
    case "declined":
      return { text: `The payment did not go through. ${state.reason ?? ""}`.trim(), again: true }
    case "expired":
      return {
        text:
          state.cause === "cart_changed"
            ? "Your cart changed after the card fields opened: choose a way to pay the new total."
            : "These card fields have expired: choose a way to pay again.",
        again: true,
      }
    case "pending":
      return { text: "Your bank has not confirmed the payment yet: your order appears once it does." }
    default:
      return { text: "The card fields could not be shown.", again: true }
  }
}

export async function cardFieldsStep(context, cart, paymentStepUrl) {
  const session = nexiSessionOf(cart)
  if (!hasCardFields(session)) return location.assign(paymentStepUrl)
  const fields = cardFieldsOf(session)
  const token = customerToken()
  const client = storeClientFromFetch((url, init) => fetch(url, init), {
    baseUrl: context.config.backendUrl,
    publishableKey: context.config.publishableKey,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  const rows = fields.fields.map((field) =>
    h(
      "div",
      { class: "card-field", "data-field": field.id },
      h("label", {}, TITLES[field.id] ?? field.id),
      h("div", { id: field.id }),
      h("p", { class: "field-problem", "data-testid": "field-problem", hidden: true }),
    ),
  )
  const container = h("div", { class: "card-fields" }, rows)
  const status = h("p", { "data-testid": "card-fields-status", role: "status", "aria-live": "polite" })
  const pay = h(
    "button",
    { type: "button", "data-testid": "pay", disabled: true },
    `Pay ${formatMoney(cart.total, cart.currency_code)}`,
  )
  const again = h(
    "a",
    { class: "button", href: paymentStepUrl, "data-testid": "retry", hidden: true },
    "Choose a way to pay",
  )
  const root = h(
    "section",
    { "data-testid": "card-payment", "data-state": "loading" },
    container,
    status,
    h("div", { class: "row" }, again, pay),
  )
  render(
    h("h1", {}, "Your card"),
    alertBox("info", "The card details go straight to Nexi: this shop never sees them."),
    root,
  )

  const show = (state) => {
    root.dataset.state = state.status
    const { text, again: chooseAgain } = describe(state)
    status.textContent = text
    container.hidden = !["loading", "ready", "invalid", "paying"].includes(state.status)
    pay.hidden = container.hidden
    pay.disabled = state.status !== "ready" && state.status !== "invalid"
    again.hidden = !chooseAgain
    for (const row of rows) {
      const problem = state.problems?.[row.dataset.field]
      const line = row.querySelector(".field-problem")
      line.hidden = !problem
      line.textContent = problem ? problem.message || "Check this field." : ""
      row.classList.toggle("invalid", Boolean(problem))
    }
    if (state.status === "paid") {
      remembered.forgetCart()
      location.assign(`/order?id=${encodeURIComponent(state.orderId)}`)
    }
  }
  const payment = startCardPayment({
    session: fields,
    container,
    onState: show,
    finalize: (signal) => finalizeCardPayment(client, { cartId: cart.id, sessionId: fields.sessionId }, { signal }),
    settle: (signal) => resolveReturn(client, { cartId: cart.id }, { signal }),
    style: { cssLink: "/card-fields.css", componentClassName: "card-input", containerClassName: "card-box" },
    integrity: context.config.sdkIntegrity,
    titles: TITLES,
  })
  pay.addEventListener("click", () => payment.pay())
}

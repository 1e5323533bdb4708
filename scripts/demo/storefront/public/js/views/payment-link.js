/**
 * The page a payment link returns to (the provider's paymentLinkResultUrl and
 * paymentLinkCancelUrl: /nexi/payment-link?order_id=...&session_id=...). A link has no cart, so
 * nothing here completes one: the store route says what became of the link, for a guest too. An
 * outcome the gateway has not given yet is asked again for a while.
 */
import { alertBox, h, render } from "../dom.js"
import { formatMoney } from "../money.js"
import { renderNav } from "../nav.js"

const RETRY_MS = 2_000
const PATIENCE_MS = 30_000

/** What the customer reads for each outcome of the store route. */
const WORDING = {
  paid: { title: "Thank you: your payment is received", kind: "success", text: (amount) => `${amount} paid.` },
  pending: {
    title: "Your payment is not confirmed yet",
    kind: "info",
    text: () => "We have no answer from the bank yet. Check your email before paying again.",
  },
  declined: { title: "Payment not completed", kind: "error", text: () => "The payment was declined." },
  cancelled: { title: "Payment not completed", kind: "error", text: () => "The payment was cancelled." },
  expired: { title: "This payment link has expired", kind: "error", text: () => "Ask the shop for a new one." },
}

function outcomeOf(api, orderId, sessionId) {
  const query = `order_id=${encodeURIComponent(orderId)}`
  return api.get(`/store/nexi/payment-links/${encodeURIComponent(sessionId)}?${query}`)
}

export async function paymentLinkView(context) {
  const orderId = context.params.get("order_id") ?? ""
  const sessionId = context.params.get("session_id") ?? ""
  renderNav({})
  render(
    h("h1", {}, "Checking your payment…"),
    h("p", {}, h("span", { class: "spinner", "aria-hidden": "true" }), "One moment, please."),
  )
  const giveUpAt = Date.now() + PATIENCE_MS
  let link = (await outcomeOf(context.api, orderId, sessionId)).payment_link
  while (link.status === "pending" && Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
    link = (await outcomeOf(context.api, orderId, sessionId)).payment_link
  }
  const wording = WORDING[link.status]
  const amount = formatMoney(link.amount, link.currency_code)
  render(
    h("h1", { "data-testid": "payment-link-outcome", "data-status": link.status }, wording.title),
    alertBox(wording.kind, link.reason ?? wording.text(amount), "payment-link-reason"),
    link.status === "paid" ? null : h("p", {}, `The link asks ${amount}. The shop can send you a new link.`),
    h("a", { class: "button", href: "/" }, "Back to the shop"),
  )
}

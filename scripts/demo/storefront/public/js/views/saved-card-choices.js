/**
 * What a logged-in customer adds to the payment step (docs/saved-cards.md): their saved cards
 * as ways to pay, where the hosted page asks only the CVV, and "Save my card" with the card
 * method. A guest gets neither, and the payment step makes no call for them.
 */
import { isLoggedIn } from "../customer.js"
import { h } from "../dom.js"
import { cardLabel, listSavedCards } from "../saved-cards.js"

/** The customer's saved cards of a card method this region offers. */
export async function usableSavedCards(api, methods) {
  if (!isLoggedIn()) return []
  const cardProviders = methods.filter((method) => method.kind === "card").map((method) => method.provider_id)
  return (await listSavedCards(api)).filter((card) => cardProviders.includes(card.provider_id))
}

/** A saved card among the ways to pay: the session is its provider's, with the card's id. */
export function savedCardOption(card, checked) {
  return h(
    "label",
    { class: "method", "data-testid": "saved-card-method", "data-saved-card": card.id },
    h("input", {
      type: "radio",
      name: "provider_id",
      value: card.provider_id,
      "data-kind": "saved-card",
      "data-saved-card": card.id,
      checked,
    }),
    h("span", { "data-testid": "saved-card-label" }, cardLabel(card)),
    h("span", { class: "kind" }, "saved card, CVV only"),
  )
}

/**
 * The "Save my card" box, shown while the card method is chosen; only a logged-in customer may
 * save one. Beside it, unticked, the customer's consent to the shop charging the saved card later
 * for changes to their orders (a contract MIT_UNSCHEDULED); it means something only with the card saved.
 */
export function saveCardField() {
  if (!isLoggedIn()) return null
  return h(
    "div",
    { class: "save-card", "data-testid": "save-card-field", hidden: true },
    h(
      "label",
      {},
      h("input", { type: "checkbox", name: "save_card", "data-testid": "save-card" }),
      "Save my card",
      h("span", { class: "muted" }, "next time you give only its CVV"),
    ),
    h(
      "label",
      {},
      h("input", { type: "checkbox", name: "allow_merchant_charges", "data-testid": "allow-merchant-charges" }),
      "Let the shop charge this card for changes to my orders",
      h("span", { class: "muted" }, "an added item, an exchange; you can delete the card at any time"),
    ),
  )
}

/** The card session's `data` for the chosen way to pay: the saved card to pay with, a wallet, or the card to save. */
export function cardSessionData(form, chosen) {
  if (chosen.dataset.kind === "saved-card") return { payment_method_id: chosen.dataset.savedCard }
  if (chosen.dataset.kind === "wallet") return { wallet: chosen.dataset.wallet }
  if (form.save_card?.checked)
    return form.allow_merchant_charges?.checked
      ? { save_card: true, allow_merchant_charges: true }
      : { save_card: true }
  return undefined
}

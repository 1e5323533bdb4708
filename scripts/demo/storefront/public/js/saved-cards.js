/**
 * The plugin's saved-card routes, for the logged-in customer only (store-api.js sends their
 * token). Paying with a saved card, or saving the card of a payment, is a payment session's
 * `data` instead (views/saved-card-choices.js).
 */

/** [{ id, circuit, masked_pan, expiry, created_at, provider_id }], newest first; only cards the gateway confirmed. */
export async function listSavedCards(api) {
  return (await api.get("/store/nexi/saved-cards")).saved_cards
}

/**
 * Saving a card without paying: answers { saved_card: { id, state: "pending" }, hosted_page }.
 * The hosted page verifies the card (nothing is charged) and sends the shopper to `returnUrl`,
 * whether the card was added or not; it is listed once the gateway confirmed it.
 */
export async function startAddingCard(api, { currencyCode, returnUrl, allowMerchantCharges }) {
  return api.post("/store/nexi/saved-cards", {
    currency_code: currencyCode,
    return_url: returnUrl,
    // The customer's consent to the shop charging the card later; left out when not given.
    ...(allowMerchantCharges ? { allow_merchant_charges: true } : {}),
  })
}

export async function deleteSavedCard(api, id) {
  await api.delete(`/store/nexi/saved-cards/${encodeURIComponent(id)}`)
}

/** "VISA •••• 4549": the circuit and the last four digits, as the hosted page shows the card. */
export function cardLabel(card) {
  return `${card.circuit ?? "Card"} •••• ${(card.masked_pan ?? "").slice(-4)}`
}

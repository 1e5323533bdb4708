/**
 * My account: who is logged in, their saved cards, and logging out. "Add a card" saves one
 * without paying: the hosted page verifies the card (nothing is charged) and sends the shopper
 * back here (return_url) whether it was added or not; the card is listed once the gateway
 * confirmed it, so this page tells which from the list.
 */
import { remembered } from "../cart-store.js"
import { currentCustomer, logOut } from "../customer.js"
import { alertBox, busy, h, render } from "../dom.js"
import { renderNav } from "../nav.js"
import { cardLabel, deleteSavedCard, listSavedCards, startAddingCard } from "../saved-cards.js"

/** The card the shopper went to add on the hosted page, remembered for their way back. */
const ADDING_KEY = "nexi-demo-card-being-added"

/** The verification is an order of 0 in the shopper's currency: their region's, else the first region's. */
async function shopperCurrency(api) {
  const { regions } = await api.get("/store/regions?fields=id,currency_code")
  return (regions.find((region) => region.id === remembered.regionId()) ?? regions[0]).currency_code
}

/** Back from adding a card: whether it is among the saved cards now. */
function addedCardNotice(cards) {
  const id = sessionStorage.getItem(ADDING_KEY)
  if (!id) return null
  sessionStorage.removeItem(ADDING_KEY)
  const card = cards.find((candidate) => candidate.id === id)
  return card
    ? alertBox("success", `${cardLabel(card)} is saved. Choose it at checkout and give only its CVV.`, "card-added")
    : alertBox(
        "error",
        "The card was not added: the check was cancelled, or the bank did not confirm the card.",
        "card-not-added",
      )
}

/** "Add a card", with the same unticked consent box as the checkout's "Save my card". */
function addCardControls(api) {
  const consent = h("input", { type: "checkbox", "data-testid": "add-card-allow-merchant-charges" })
  const button = h("button", { type: "button", "data-testid": "add-card" }, "Add a card")
  button.addEventListener("click", () =>
    busy(button, async () => {
      const started = await startAddingCard(api, {
        currencyCode: await shopperCurrency(api),
        returnUrl: `${location.origin}/account`,
        allowMerchantCharges: consent.checked,
      })
      sessionStorage.setItem(ADDING_KEY, started.saved_card.id)
      location.assign(started.hosted_page)
    }),
  )
  return h(
    "div",
    { class: "add-card" },
    h(
      "label",
      {},
      consent,
      "Let the shop charge this card for changes to my orders",
      h("span", { class: "muted" }, "an added item, an exchange; you can delete the card at any time"),
    ),
    button,
  )
}

function cardRow(api, card, show) {
  const label = cardLabel(card)
  const remove = h(
    "button",
    { type: "button", class: "link", "data-testid": "delete-card", "aria-label": `Delete ${label}` },
    "Delete",
  )
  remove.addEventListener("click", () =>
    busy(remove, async () => {
      await deleteSavedCard(api, card.id)
      await show(alertBox("success", `${label} is deleted.`, "card-deleted"))
    }),
  )
  return h(
    "tr",
    { "data-testid": "saved-card", "data-card-id": card.id },
    h("td", { "data-testid": "saved-card-label" }, label),
    h("td", { class: "muted" }, `added ${new Date(card.created_at).toLocaleDateString("en-GB")}`),
    h(
      "td",
      { class: "muted", "data-testid": "saved-card-charges" },
      card.allows_merchant_charges ? "the shop may charge it for changes to your orders" : "only you pay with it",
    ),
    h("td", { class: "amount" }, remove),
  )
}

export async function accountView(context) {
  const { api } = context
  const customer = await currentCustomer(api)
  if (!customer) return location.assign("/account/login")
  renderNav({})
  const logOutButton = h("button", { type: "button", class: "secondary", "data-testid": "log-out" }, "Log out")
  logOutButton.addEventListener("click", () => {
    logOut()
    location.assign("/")
  })
  const show = async (notice) => {
    const cards = await listSavedCards(api)
    render(
      h("h1", {}, "My account"),
      notice ?? addedCardNotice(cards),
      h(
        "p",
        { "data-testid": "customer" },
        `Logged in as ${customer.first_name ?? ""} ${customer.last_name ?? ""} (${customer.email}).`,
      ),
      h("h2", {}, "Saved cards"),
      cards.length
        ? h(
            "table",
            { "data-testid": "saved-cards" },
            h(
              "tbody",
              {},
              cards.map((card) => cardRow(api, card, show)),
            ),
          )
        : h(
            "p",
            { class: "muted", "data-testid": "no-saved-cards" },
            'No saved cards. Tick "Save my card" when you pay by card, or add one here.',
          ),
      h("div", { class: "row" }, addCardControls(api), logOutButton),
    )
  }
  await show()
}

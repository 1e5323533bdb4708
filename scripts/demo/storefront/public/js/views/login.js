/**
 * Logging in with e-mail and password (Medusa's emailpass provider); `npm run demo` prints the
 * demo shopper's. ?next= is the page of this shop to go back to (the nav's "Log in" link sets it).
 */
import { isLoggedIn, logIn } from "../customer.js"
import { busy, h, render } from "../dom.js"
import { renderNav } from "../nav.js"

/** Only a path of this shop, never another site ("//host") nor this page again. */
function nextPage(params) {
  const next = params.get("next") ?? ""
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/account/login") ? next : "/account"
}

export async function loginView(context) {
  if (isLoggedIn()) return location.assign(nextPage(context.params))
  renderNav({})
  const button = h("button", { type: "submit", "data-testid": "log-in" }, "Log in")
  const form = h(
    "form",
    { class: "login", "data-testid": "login-form" },
    h(
      "div",
      {},
      h("label", { for: "email" }, "Email"),
      h("input", { id: "email", name: "email", type: "email", required: true, autocomplete: "username" }),
    ),
    h(
      "div",
      {},
      h("label", { for: "password" }, "Password"),
      h("input", {
        id: "password",
        name: "password",
        type: "password",
        required: true,
        autocomplete: "current-password",
      }),
    ),
    h("div", {}, button),
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    busy(button, async () => {
      await logIn(context.api, form.email.value.trim(), form.password.value)
      location.assign(nextPage(context.params))
    })
  })
  render(
    h("h1", {}, "Log in"),
    h(
      "p",
      { class: "muted" },
      "Log in to save your card at checkout and pay your next orders with it. npm run demo prints the demo shopper's e-mail and password.",
    ),
    form,
  )
}

/**
 * The demo storefront: one page, one view per path. The paths are the ones the Nexi provider
 * is configured with: resultUrl /checkout/nexi/result?cart_id=... (back from the hosted
 * payment page) and cancelUrl /checkout?step=payment&cart_id=... (the shopper gave up there);
 * /nexi/payment-link?order_id=...&session_id=... is where a payment link's page returns to
 * (paymentLinkResultUrl and paymentLinkCancelUrl); /account is where adding a saved card comes
 * back to.
 */
import { customerToken } from "./customer.js"
import { h, render, showError } from "./dom.js"
import { createStoreApi } from "./store-api.js"
import { accountView } from "./views/account.js"
import { checkoutView } from "./views/checkout.js"
import { loginView } from "./views/login.js"
import { mobileApprovalView } from "./views/mobile.js"
import { orderView } from "./views/order.js"
import { paymentLinkView } from "./views/payment-link.js"
import { resultView } from "./views/result.js"
import { shopView } from "./views/shop.js"

const VIEWS = {
  "/": shopView,
  "/checkout": checkoutView,
  "/checkout/nexi/result": resultView,
  "/checkout/mobile": mobileApprovalView,
  "/order": orderView,
  "/nexi/payment-link": paymentLinkView,
  "/account": accountView,
  "/account/login": loginView,
}

async function main() {
  const config = await (await fetch("/config.json")).json()
  const context = {
    config,
    api: createStoreApi({ ...config, customerToken }),
    params: new URLSearchParams(location.search),
  }
  document
    .getElementById("footer-links")
    .append(
      config.adminUrl ? h("a", { href: config.adminUrl, target: "_blank", rel: "noopener" }, "Admin") : "",
      h("a", { href: config.simulatorUrl, target: "_blank", rel: "noopener" }, "Simulator"),
    )
  const view = VIEWS[location.pathname.replace(/\/+$/, "") || "/"]
  if (!view) {
    render(h("h1", {}, "Page not found"), h("a", { href: "/" }, "Back to the shop"))
    return
  }
  await view(context)
}

main().catch((error) => {
  render(h("h1", {}, "Something went wrong"))
  showError(error)
})

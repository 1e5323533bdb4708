import { authenticate, defineMiddlewares } from "@medusajs/framework/http"
import {
  attachCartContext,
  keepDocumentedSessionData,
  refuseUnknownLanguage,
  refuseUnofferedWallet,
  requireConsumerId,
} from "./utils/payment-session-request"

export default defineMiddlewares({
  routes: [
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: "POST",
      // In this order: what the storefront may not set is gone before anything reads `data`.
      middlewares: [
        keepDocumentedSessionData,
        requireConsumerId,
        refuseUnknownLanguage,
        refuseUnofferedWallet,
        attachCartContext,
      ],
    },
    {
      // A customer's saved cards: only their own, only logged in.
      matcher: "/store/nexi/saved-cards*",
      middlewares: [authenticate("customer", ["session", "bearer"])],
    },
    {
      // The open payment link of an order: its own customer only.
      matcher: "/store/nexi/orders/:id/payment-link",
      middlewares: [authenticate("customer", ["session", "bearer"])],
    },
  ],
})

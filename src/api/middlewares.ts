import { defineMiddlewares } from "@medusajs/framework/http"
import { attachCartContext } from "./utils/attach-cart-context"
import { requireConsumerId } from "./utils/require-consumer-id"

export default defineMiddlewares({
  routes: [
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: "POST",
      middlewares: [requireConsumerId, attachCartContext],
    },
  ],
})

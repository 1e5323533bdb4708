/**
 * GET /admin/nexi/payment-methods: the payment methods the gateway enables for the merchant
 * (GET /payment_methods), as NexiGatewayPaymentMethodsResponse.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { fromGateway } from "../../../../core/medusa-errors"
import { merchantGateway } from "../../../../core/store-entries"
import type { NexiGatewayPaymentMethodsResponse } from "../../../../staff/contract"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiGatewayPaymentMethodsResponse>) {
  const gateway = await merchantGateway(req.scope)
  const { paymentMethods } = await fromGateway("list the gateway's payment methods", () => gateway.listPaymentMethods())
  res.json({
    payment_methods: paymentMethods.map((method) => ({
      circuit: method.circuit,
      method_type: method.methodType,
      image_link: method.imageLink ?? null,
      recurring_supported: method.recurringSupported ?? false,
      one_click_supported: method.oneClickSupported ?? false,
    })),
  })
}

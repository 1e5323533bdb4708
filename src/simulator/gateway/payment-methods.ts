/** GET /payment_methods: the four card circuits the simulator accepts and a few APMs. */
import type { PaymentMethod } from "../../gateway/schemas"
import { jsonAnswer } from "../http-helpers"
import type { SimResponse } from "../http-types"
import type { GatewayContext } from "./context"

const METHODS: readonly { circuit: string; methodType: "CARD" | "APM"; logo: string }[] = [
  { circuit: "VISA", methodType: "CARD", logo: "visa" },
  { circuit: "MC", methodType: "CARD", logo: "mc" },
  { circuit: "MAESTRO", methodType: "CARD", logo: "maestro" },
  { circuit: "AMEX", methodType: "CARD", logo: "amex" },
  { circuit: "PAYPAL", methodType: "APM", logo: "paypal" },
  { circuit: "GOOGLEPAY", methodType: "APM", logo: "googlepay" },
  { circuit: "APPLEPAY", methodType: "APM", logo: "applepay" },
  { circuit: "SATISPAY", methodType: "APM", logo: "satispay" },
]

export function listPaymentMethods(context: GatewayContext): SimResponse {
  const paymentMethods: PaymentMethod[] = METHODS.map(({ circuit, methodType, logo }) => ({
    circuit,
    methodType,
    imageLink: `${context.publicUrl}/assets/logos/${logo}.svg`,
    recurringSupported: methodType === "CARD",
    oneClickSupported: methodType === "CARD",
  }))
  return jsonAnswer(200, { paymentMethods })
}

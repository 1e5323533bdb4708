/** How the admin names what a released payment was at the gateway. */
import type { NexiReleasedPayment } from "../../staff/contract"

export function gatewayRefLabel(payment: Pick<NexiReleasedPayment, "kind">): string {
  return payment.kind === "card" ? "Gateway order" : "Mobile transaction"
}

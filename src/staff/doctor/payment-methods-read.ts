/** One read of GET /payment_methods for the whole run, kept with its failure rather than thrown. */
import type { GatewayClient } from "../../gateway/gateway-client"
import type { PaymentMethodList } from "../../gateway/schemas"

export type PaymentMethodsRead = { ok: true; list: PaymentMethodList } | { ok: false; error: unknown }

export function readPaymentMethodsOnce(gateway: GatewayClient): () => Promise<PaymentMethodsRead> {
  let read: Promise<PaymentMethodsRead> | undefined
  return () => {
    read ??= gateway.listPaymentMethods().then(
      (list): PaymentMethodsRead => ({ ok: true, list }),
      (error: unknown): PaymentMethodsRead => ({ ok: false, error }),
    )
    return read
  }
}

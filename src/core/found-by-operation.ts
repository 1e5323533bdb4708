/**
 * Recovery of a card write by the operation it made: the gateway order is read, and the write
 * is matched with the operation it must have left (executed-operation.ts), never with one the
 * ledger already gave to another write. Capture, refund, void and cancel of a capture.
 */
import type { GatewayClient } from "../gateway/gateway-client"
import type { PaymentLedger } from "../modules/nexi-ledger/types"
import { executedOperationFor } from "./executed-operation"
import type { Recovery } from "./send-once"

/**
 * @param keyless the gateway takes no idempotency key for the write (a cancel,
 * docs/contract/gateway.md): a second sender is refused once the first one's write stands, so
 * a refusal is checked against the order too.
 */
export function byOperation(
  gateway: GatewayClient,
  ledger: PaymentLedger,
  { keyless }: { keyless: boolean },
): Recovery {
  return {
    refusalMayMeanMade: keyless,
    whenUnreadable: "wait",
    async find(write) {
      const details = await gateway.getOrder(write.gateway_ref)
      const others = (await ledger.writesOf(write.gateway_ref)).filter(
        (other) => other.idempotency_key !== write.idempotency_key,
      )
      const taken = new Set(others.map((other) => other.gateway_operation_id).filter((id): id is string => Boolean(id)))
      return executedOperationFor(write, details, taken)
    },
  }
}

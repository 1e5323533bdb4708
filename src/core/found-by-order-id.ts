/**
 * Recovery of a request that opens a gateway order (a MOTO payment, a card verification) by
 * its order id. The order id is fixed for the attempt and the gateway refuses one it has seen,
 * so a repeat (by the transport, or by staff sending the request again) cannot act twice, and
 * what the first try did is read back from GET /orders/{orderId}.
 */
import type { GatewayClient } from "../gateway/gateway-client"
import type { Operation, OrderDetails } from "../gateway/schemas"
import { NotFoundError, UnexpectedResponseError } from "../http/errors"
import type { Recovery } from "./send-once"

/** The gateway's record of the order, or undefined when it has none (nothing was done). */
async function recordedOrder(gateway: GatewayClient, orderId: string): Promise<OrderDetails | undefined> {
  try {
    const details = await gateway.getOrder(orderId)
    return details.operations.length ? details : undefined
  } catch (error) {
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}

/** The id of the operation a request made; an answer without one is read back from the order instead. */
export function operationIdOf(operation: Operation): string {
  if (!operation.operationId)
    throw new UnexpectedResponseError("gateway", "The gateway answered with an operation that has no id")
  return operation.operationId
}

export class ByOrderId implements Recovery {
  // A repeated order id is refused: the refusal may be the first try's success.
  readonly refusalMayMeanMade = true
  readonly whenUnreadable = "repeat"
  /** The gateway's record of the order as last read, when it holds the request's operation. */
  found?: OrderDetails

  /**
   * @param made whether the order the gateway records holds what the request was to make
   * (a declined card is an order, but nothing made)
   */
  constructor(
    private readonly gateway: GatewayClient,
    private readonly orderId: string,
    private readonly made: (details: OrderDetails) => boolean = () => true,
  ) {}

  async find(): Promise<string | undefined> {
    const details = await recordedOrder(this.gateway, this.orderId)
    if (!details || !this.made(details)) return undefined
    this.found = details
    return details.operations[0]?.operationId
  }
}

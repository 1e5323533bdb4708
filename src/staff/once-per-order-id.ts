/**
 * Sends a request that opens a gateway order (a MOTO payment, a card verification) so that it
 * takes effect at most once, even when its answer is lost. The order id is fixed for the
 * attempt and the gateway refuses one it has seen, so a repeat (by the transport, or by staff
 * sending the request again) cannot act twice; what the first try did is then read back from
 * the gateway's record of that order id (GET /orders/{orderId}).
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../gateway/gateway-client"
import type { OperationResponse, Order, OrderDetails } from "../gateway/schemas"
import { NotFoundError } from "../http/errors"

/** The gateway's record of the order, or undefined when it has none (nothing was done). */
export async function recordedOrder(gateway: GatewayClient, orderId: string): Promise<OrderDetails | undefined> {
  try {
    const details = await gateway.getOrder(orderId)
    return details.operations.length ? details : undefined
  } catch (error) {
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}

/**
 * @param readFirst true when this attempt may have been sent before (a resumed attempt): the
 * gateway's record is read before anything is sent.
 */
export async function sendOncePerOrderId(
  gateway: GatewayClient,
  order: Order,
  send: () => Promise<OperationResponse>,
  { readFirst }: { readFirst: boolean },
): Promise<OrderDetails> {
  if (readFirst) {
    const earlier = await recordedOrder(gateway, order.orderId)
    if (earlier) return earlier
  }
  try {
    const { operation } = await send()
    return { orderStatus: { order }, operations: [operation], paymentLinks: [] }
  } catch (error) {
    // A lost answer, or a repeat refused because the first try went through.
    const recorded = await recordedOrder(gateway, order.orderId).catch(() => {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `The outcome of the request for gateway order ${order.orderId} is unknown: the gateway could not be read. Send the same request again: it reads the gateway first and never acts twice.`,
      )
    })
    if (recorded) return recorded
    throw error
  }
}

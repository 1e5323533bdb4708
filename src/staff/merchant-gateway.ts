/**
 * The merchant's card gateway, for what is about the gateway itself rather than one payment
 * (order and operation lookups, the payment methods), and the one way its typed errors become
 * MedusaErrors saying what could not be done.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { toMedusaError } from "../core/medusa-errors"
import { cardProviderIdOf, gatewayClientFor } from "../core/store-entries"
import type { GatewayClient } from "../gateway/gateway-client"

export async function merchantGateway(container: MedusaContainer): Promise<GatewayClient> {
  return gatewayClientFor(container, await cardProviderIdOf(container))
}

/** Runs a gateway call; its typed errors become MedusaErrors saying what could not be done. */
export async function fromGateway<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw toMedusaError(error, action)
  }
}

/**
 * The clients of one store entry: the card gateway's and, when `apm` is configured, the
 * mobile-payment service's, built from the entry's parsed options once for the life of the
 * process. The providers and the admin use cases both take them from here, so they share one
 * set of kept-alive connections per entry.
 */
import type { Logger } from "@medusajs/framework/types"
import type { ApmClient } from "../apm/apm-client"
import { createApmClient } from "../apm/http-apm-client"
import type { GatewayClient } from "../gateway/gateway-client"
import { createGatewayClient } from "../gateway/http-gateway-client"
import type { NexiOptions } from "./options"

export interface NexiClients {
  gateway: GatewayClient
  /** Undefined when the entry has no `apm` options. */
  apm: ApmClient | undefined
}

const built = new WeakMap<NexiOptions, NexiClients>()

export function clientsFor(options: NexiOptions, logger?: Logger): NexiClients {
  let clients = built.get(options)
  if (!clients) {
    const { apiKey, environment, timeoutMs, retries, apm } = options
    clients = {
      gateway: createGatewayClient({ apiKey, environment, timeoutMs, retries, logger }),
      apm:
        apm &&
        createApmClient({
          consumerKey: apm.consumerKey,
          consumerSecret: apm.consumerSecret,
          environment: apm.environment,
          timeoutMs: apm.timeoutMs,
          retries: apm.retries,
          logger,
        }),
    }
    built.set(options, clients)
  }
  return clients
}

/**
 * The gateway and APM clients for routes, built from the store's provider options. One client
 * per options object for the life of the process (nexiOptionsOf gives the same object every
 * time), so every admin request reuses the same kept-alive connections instead of opening new
 * ones. The providers have their own clients in the payment module's container, out of reach.
 */
import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { ApmClient } from "../../apm/apm-client"
import { createApmClient } from "../../apm/http-apm-client"
import type { GatewayClient } from "../../gateway/gateway-client"
import { createGatewayClient } from "../../gateway/http-gateway-client"
import { apmMethodOfProvider } from "../../providers/nexi/apm/schemes"
import type { ApmOptions, NexiOptions } from "../../providers/nexi/options"
import { toMedusaError } from "../../providers/nexi/shared/medusa-errors"
import { isNexiProviderId } from "../../providers/nexi/shared/provider-ids"
import { nexiOptionsOf } from "./nexi-provider-options"

const gatewayClients = new WeakMap<NexiOptions, GatewayClient>()
const apmClients = new WeakMap<ApmOptions, ApmClient>()

function loggerOf(container: MedusaContainer): Logger | undefined {
  try {
    return container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  } catch {
    return undefined
  }
}

/** The options of the store entry behind `providerId`, or a message saying what to configure. */
export function requireNexiOptions(container: MedusaContainer, providerId: string): NexiOptions {
  const options = nexiOptionsOf(container, providerId)
  if (!options) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The Nexi provider ${providerId} has no valid options in medusa-config (payment module providers).`,
    )
  }
  return options
}

export function gatewayClientFor(container: MedusaContainer, providerId: string): GatewayClient {
  const options = requireNexiOptions(container, providerId)
  let client = gatewayClients.get(options)
  if (!client) {
    client = createGatewayClient({
      apiKey: options.apiKey,
      environment: options.environment,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      logger: loggerOf(container),
    })
    gatewayClients.set(options, client)
  }
  return client
}

export function apmClientFor(container: MedusaContainer, providerId: string): ApmClient {
  const apm = requireNexiOptions(container, providerId).apm
  if (!apm) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Mobile payments are not configured for ${providerId}: the Nexi provider has no \`apm\` options.`,
    )
  }
  let client = apmClients.get(apm)
  if (!client) {
    client = createApmClient({
      consumerKey: apm.consumerKey,
      consumerSecret: apm.consumerSecret,
      environment: apm.environment,
      timeoutMs: apm.timeoutMs,
      retries: apm.retries,
      logger: loggerOf(container),
    })
    apmClients.set(apm, client)
  }
  return client
}

export function isNexiCardProviderId(providerId: unknown): providerId is string {
  return isNexiProviderId(providerId) && !apmMethodOfProvider(providerId)
}

/**
 * The store's card provider (pp_nexi_<entry id>), for the routes that are about the merchant's
 * gateway rather than one payment. A store with several Nexi entries gets the first by id.
 */
export async function cardProviderIdOf(container: MedusaContainer): Promise<string> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  // A provider removed from medusa-config stays listed, disabled.
  const providers = await payment.listPaymentProviders({ is_enabled: true })
  const cardProvider = providers
    .map((provider) => provider.id)
    .filter(isNexiCardProviderId)
    .sort()[0]
  if (!cardProvider) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "No Nexi card provider is registered: add medusa-payment-nexi/providers/nexi to the payment module's providers in medusa-config.",
    )
  }
  return cardProvider
}

/** The merchant's card gateway, for routes about the gateway itself rather than one payment. */
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

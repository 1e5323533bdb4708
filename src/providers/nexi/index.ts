/**
 * One store entry registers every Nexi payment provider:
 *   { resolve: "medusa-payment-nexi/providers/nexi", id: "nexi", options: { ... } }
 * gives pp_nexi_nexi (cards on the hosted payment page) and one provider per mobile
 * payment scheme (pp_nexi-apm-<scheme>_nexi), so each shows up on its own at checkout.
 */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { APM_PROVIDER_SERVICES } from "./apm/apm-provider"
import { NexiCardProviderService } from "./card/card-provider"

export default ModuleProvider(Modules.PAYMENT, {
  services: [NexiCardProviderService, ...APM_PROVIDER_SERVICES],
})

/** The entry's `options`, as a store writes them in medusa-config.ts (and as parsed). */
export type { ApmOptions, NexiOptions, NexiOptionsInput } from "../../core/options"

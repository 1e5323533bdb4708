/**
 * One Medusa payment provider per scheme, as Medusa's Stripe provider registers one per
 * payment method: each sets only its identifier and its scheme; the lifecycle is shared.
 */
import type { ApmMethod } from "../../../apm/schemas"
import { apmIdentifier } from "../../../core/provider-ids"
import { NexiApmProviderService } from "./apm-provider"

/** pp_nexi-apm-psp-a-e-com_nexi */
export class NexiApmPspAEComProviderService extends NexiApmProviderService {
  static identifier = apmIdentifier("PSP_A_E_COM")
  protected readonly method: ApmMethod = "PSP_A_E_COM"
}

/** pp_nexi-apm-psp-b_nexi */
export class NexiApmPspBProviderService extends NexiApmProviderService {
  static identifier = apmIdentifier("PSP_B")
  protected readonly method: ApmMethod = "PSP_B"
}

/** pp_nexi-apm-psp-c_nexi */
export class NexiApmPspCProviderService extends NexiApmProviderService {
  static identifier = apmIdentifier("PSP_C")
  protected readonly method: ApmMethod = "PSP_C"
}

/** pp_nexi-apm-psp-d_nexi */
export class NexiApmPspDProviderService extends NexiApmProviderService {
  static identifier = apmIdentifier("PSP_D")
  protected readonly method: ApmMethod = "PSP_D"
}

export const APM_PROVIDER_SERVICES = [
  NexiApmPspAEComProviderService,
  NexiApmPspBProviderService,
  NexiApmPspCProviderService,
  NexiApmPspDProviderService,
]

/**
 * The mobile payment providers (`pp_nexi-apm-<scheme>_nexi`): Medusa's payment lifecycle on
 * the alternative-payment transaction service (docs/contract/apm.md), as a door. This base class
 * hands each of Medusa's calls to the scheme's sessions (src/core/mobile/apm-sessions.ts);
 * one tiny subclass per scheme, at the end, sets only its identifier and its scheme, as
 * Medusa's Stripe provider registers one per payment method. Behaviour and choices:
 * docs/apm-provider.md.
 */
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, PaymentActions } from "@medusajs/framework/utils"
import type { ApmMethod } from "../../../apm/schemas"
import { ApmSessions } from "../../../core/mobile/apm-sessions"
import { ApmTransactions } from "../../../core/mobile/apm-transactions"
import { type NexiOptions, parseNexiOptions } from "../../../core/options"
import { apmIdentifier } from "../../../core/provider-ids"
import { type ProviderCradle, ProviderEntry } from "../../../core/store-entries"

export abstract class NexiApmProviderService extends AbstractPaymentProvider<NexiOptions> {
  /** The scheme this provider pays with (docs/contract/apm.md `method`). */
  protected abstract readonly method: ApmMethod
  private readonly entry: ProviderEntry

  static validateOptions(options: Record<string, unknown>): void {
    parseNexiOptions(options)
  }

  constructor(cradle: ProviderCradle, options: NexiOptions) {
    super(cradle, options)
    this.entry = new ProviderEntry(cradle, options, this.getIdentifier())
  }

  /**
   * The scheme's sessions and money, with this provider's options and ledger. Built at first
   * use: the scheme subclass sets `method` after this base class's constructor has run.
   */
  private get sessions(): ApmSessions {
    const { options, records, providerKey, logger } = this.entry
    const ledger = (action: string) => this.entry.ledger(action)
    this.sessions_ ??= new ApmSessions(
      new ApmTransactions({ options, method: this.method, ledger, records, providerKey, logger }),
    )
    return this.sessions_
  }

  private sessions_?: ApmSessions

  /**
   * Medusa's webhook route for a mobile scheme: the service sends no notifications, so nothing
   * arrives here but noise. The storefront's status poll and the job sync mobile payments
   * directly (src/core/mobile/mobile-sync.ts).
   */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    this.entry.logger?.warn(`nexi: ${this.method} has no notifications; ignored a webhook call`)
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const { state, data } = await this.sessions.read(input.data, "authorize the payment")
    return { status: state.status, data }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { state, data } = await this.sessions.read(input.data, "read the payment status")
    return { status: state.status, data }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: (await this.sessions.read(input.data, "retrieve the payment")).data }
  }

  initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    return this.sessions.initiate(input)
  }

  updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    return this.sessions.update(input)
  }

  deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return this.sessions.delete(input)
  }

  capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return this.sessions.capture(input)
  }

  refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    return this.sessions.refund(input)
  }

  cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return this.sessions.cancel(input)
  }
}

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

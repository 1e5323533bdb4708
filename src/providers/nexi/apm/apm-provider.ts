/**
 * The mobile payment providers (`pp_nexi-apm-<scheme>_nexi`): Medusa's payment lifecycle on
 * the alternative-payment transaction service (docs/contract/apm.md), as a door. This base class
 * hands each of Medusa's calls to the scheme's sessions (src/core/mobile/apm-sessions.ts);
 * scheme-providers.ts has one tiny subclass per scheme. Behaviour and choices:
 * docs/apm-provider.md.
 */
import type {
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import type { ApmMethod } from "../../../apm/schemas"
import { ApmSessions } from "../../../core/mobile/apm-sessions"
import { ApmTransactions } from "../../../core/mobile/apm-transactions"
import type { MobileTransaction } from "../../../core/mobile/mobile-transaction"
import { NexiProviderBase } from "../shared/provider-base"

export abstract class NexiApmProviderService extends NexiProviderBase<MobileTransaction> {
  /** The scheme this provider pays with (docs/contract/apm.md `method`). */
  protected abstract readonly method: ApmMethod

  /**
   * The scheme's sessions and money, with this provider's options and ledger. Built at first
   * use: the scheme subclass sets `method` after this base class's constructor has run.
   */
  private get sessions(): ApmSessions {
    const ledger = (action: string) => this.ledger(action)
    this.sessions_ ??= new ApmSessions({
      method: this.method,
      transactions: new ApmTransactions({
        options: this.options_,
        method: this.method,
        ledger,
        rows: this.records,
        logger: this.logger_,
      }),
      ledger,
      records: this.records,
      providerKey: this.providerKey(),
      logger: this.logger_,
    })
    return this.sessions_
  }

  private sessions_?: ApmSessions

  /**
   * Medusa's webhook route for a mobile scheme: the service sends no notifications, so nothing
   * arrives here but noise. The storefront's status poll and the job sync mobile payments
   * directly (src/core/mobile/mobile-sync.ts).
   */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    this.logger_?.warn(`nexi: ${this.method} has no notifications; ignored a webhook call`)
    return { action: PaymentActions.NOT_SUPPORTED }
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

  protected readState(
    raw: Record<string, unknown> | undefined,
    action: string,
  ): Promise<{ state: MobileTransaction; data: Record<string, unknown> }> {
    return this.sessions.read(raw, action)
  }
}

/**
 * A Medusa container stand-in for the reconciliation use cases, without a Medusa app: the
 * plugin's own in-memory ledger (a boundary we own), and a payment module, workflow engine
 * and logger holding only the methods the use cases call, each recording its calls. The
 * integration suites run the real module, engine and workflows on PostgreSQL.
 */
import type { MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { InMemoryLedger } from "../../../../test-support/in-memory-ledger"
import { NEXI_LEDGER_MODULE } from "../../../modules/nexi-ledger/types"

type Row = Record<string, unknown>

export interface WebhookCall {
  provider: string
  payload: { data: Record<string, unknown>; rawData: unknown; headers: Record<string, unknown> }
}

export class PaymentModuleStandIn {
  providers: Array<{ id: string }> = []
  sessions: Row[] = []
  payments: Row[] = []
  webhookCalls: WebhookCall[] = []
  sessionUpdates: Row[] = []
  cancelled: string[] = []
  /** What getWebhookActionAndData answers; a test sets it. */
  answer: (call: WebhookCall) => WebhookActionResult | Promise<WebhookActionResult> = () => ({ action: "not_supported" })

  async listPaymentProviders() {
    return this.providers
  }

  async getWebhookActionAndData(call: WebhookCall) {
    this.webhookCalls.push(call)
    return this.answer(call)
  }

  async listPaymentSessions(filter: { id: string }) {
    return this.sessions.filter((session) => session.id === filter.id)
  }

  async updatePaymentSession(update: Row) {
    this.sessionUpdates.push(update)
    return update
  }

  async listPayments(filter: { payment_session_id: string }) {
    return this.payments.filter((payment) => payment.payment_session_id === filter.payment_session_id)
  }

  async cancelPayment(id: string) {
    this.cancelled.push(id)
    return { id }
  }
}

export interface TestContainer {
  container: MedusaContainer
  ledger: InMemoryLedger
  payment: PaymentModuleStandIn
  workflowRuns: Array<{ workflowId: string; options: unknown }>
  warnings: string[]
}

export function testContainer(): TestContainer {
  const ledger = new InMemoryLedger()
  const payment = new PaymentModuleStandIn()
  const workflowRuns: TestContainer["workflowRuns"] = []
  const warnings: string[] = []
  const registry: Record<string, unknown> = {
    [Modules.PAYMENT]: payment,
    [NEXI_LEDGER_MODULE]: ledger,
    [Modules.WORKFLOW_ENGINE]: {
      async run(workflowId: string, options: unknown) {
        workflowRuns.push({ workflowId, options })
        return {}
      },
    },
    logger: { warn: (message: string) => warnings.push(message) },
  }
  const container = {
    resolve(name: string) {
      if (!(name in registry)) throw new Error(`test container: nothing registered as ${name}`)
      return registry[name]
    },
  } as unknown as MedusaContainer
  return { container, ledger, payment, workflowRuns, warnings }
}

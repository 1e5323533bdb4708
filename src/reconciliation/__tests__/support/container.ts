/**
 * A Medusa container stand-in for the reconciliation use cases, without a Medusa app: the
 * plugin's own in-memory ledger (a boundary we own), and a payment module, workflow engine
 * and logger holding only the methods the use cases call, each recording its calls; and a
 * stand-in for the one sync, answering what each test says (the sync has its own suites). The
 * integration suites run the real module, engine, workflows and sync on PostgreSQL.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { InMemoryLedger } from "../../../../test-support/in-memory-ledger"
import type { SyncOutcome } from "../../../core/medusa-payments"
import { NEXI_LEDGER_MODULE } from "../../../modules/nexi-ledger/types"
import type { SyncOf } from "../../reconcile-pending-sessions"

type Row = Record<string, unknown>

/** One call of the sync: a gateway ref (the job) or a session (the status route, Sync), of a provider. */
export interface SyncCall {
  provider: string
  ref?: string
  sessionId?: string
}

export class PaymentModuleStandIn {
  providers: Array<{ id: string }> = []
  sessions: Row[] = []
  payments: Row[] = []
  sessionUpdates: Row[] = []
  cancelled: string[] = []

  async listPaymentProviders() {
    return this.providers
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
  syncCalls: SyncCall[]
  /** What the sync answers; a test sets it. */
  syncAnswer: (call: SyncCall) => SyncOutcome | Promise<SyncOutcome>
  syncOf: SyncOf
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
  const test: TestContainer = {
    container,
    ledger,
    payment,
    workflowRuns,
    warnings,
    syncCalls: [],
    syncAnswer: () => "unchanged",
    syncOf: (_container, provider) => ({
      attempt: async (ref) => {
        test.syncCalls.push({ provider, ref })
        return test.syncAnswer({ provider, ref })
      },
      session: async (sessionId) => {
        test.syncCalls.push({ provider, sessionId })
        return test.syncAnswer({ provider, sessionId })
      },
    }),
  }
  return test
}

/**
 * The alternative-payment family of the gateway simulator, mounted by the server at /apm.
 * Behaviour for store developers: docs/simulator-apm.md.
 */
import type { SimRequest, SimResponse } from "../http-types"
import type { ConsumerDecision } from "./consumer-decisions"
import type { ApmContext } from "./context"
import { controlTransaction } from "./control"
import { Lifecycle } from "./lifecycle"
import { dispatch } from "./routes"
import { TransactionStore } from "./store"

export interface ApmSimulatorOptions {
  consumerKey: string
  consumerSecret: string
  /** Where clients reach the server, e.g. "http://127.0.0.1:4010"; links point below `${publicUrl}/apm`. */
  publicUrl: string
  now: () => Date
  /** Called after every state change, so the server can persist snapshot(). */
  onChange: () => void
}

export class ApmSimulator {
  private readonly store = new TransactionStore()
  private readonly ctx: ApmContext

  constructor(opts: ApmSimulatorOptions) {
    this.ctx = {
      store: this.store,
      lifecycle: new Lifecycle(this.store, opts.now),
      credentials: { consumerKey: opts.consumerKey, consumerSecret: opts.consumerSecret },
      publicUrl: opts.publicUrl.replace(/\/+$/, ""),
      changed: opts.onChange,
    }
  }

  /** req.path is below the /apm mount, e.g. "/ms/aapay/v2/transaction/payment/initialize" or "/phone/123". */
  async handle(req: SimRequest): Promise<SimResponse> {
    return dispatch(this.ctx, req)
  }

  /** POST /__sim/apm/{transactionId}/{approve|reject|expire} (control mode only). */
  control(action: ConsumerDecision, transactionId: string): SimResponse {
    return controlTransaction(this.ctx, action, transactionId)
  }

  /** JSON-serialisable full state, for the --state file. */
  snapshot(): unknown {
    return this.store.snapshot()
  }

  /**
   * Replaces the state with a snapshot() taken earlier (undefined: empty). Does not call
   * onChange: the state just came from where the server persists it. Throws
   * InvalidSnapshotError, naming the bad member, when the snapshot is not one.
   */
  restore(snapshot: unknown): void {
    this.store.restore(snapshot)
  }

  reset(): void {
    this.store.reset()
    this.ctx.changed()
  }
}

export { InvalidSnapshotError } from "./store"

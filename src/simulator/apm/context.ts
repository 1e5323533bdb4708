/** What every handler of the APM family works with. */
import type { Credentials } from "./auth"
import type { Lifecycle } from "./lifecycle"
import type { TransactionStore } from "./store"

export interface ApmContext {
  store: TransactionStore
  lifecycle: Lifecycle
  credentials: Credentials
  /** Without a trailing slash; the family is mounted at `${publicUrl}/apm`. */
  publicUrl: string
  /** Tells the server that state changed, so it can persist it. */
  changed(): void
}

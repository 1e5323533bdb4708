/**
 * The one sync of a mobile payment. The service sends no notifications: the storefront's status
 * poll, the admin's Sync and the reconciliation job call it. It reads the transaction once,
 * decides once what the read means and applies it to Medusa once (medusa-payments.ts).
 *
 * A transaction its live session still points at is that session's payment. Once no session
 * owns it (replaced or deleted), it is watched until it ends, and released if the shopper paid
 * it after all.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ApmMethod } from "../../apm/schemas"
import type { PaymentLedger } from "../../modules/nexi-ledger/types"
import { watchAfterRead } from "../attempt-watch"
import { type MedusaChanges, medusaChangesOf, type SyncOutcome } from "../medusa-payments"
import type { SessionRecord } from "../medusa-records"
import { ledgerOf } from "../store-entries"
import { type ApmTransactions, transactionsFor } from "./apm-transactions"

export interface MobileSyncDeps {
  /** One scheme's mobile-payment service of one store entry, as the sync reads and writes it. */
  service: Pick<ApmTransactions, "transactionOf" | "readPayment" | "settleWrites" | "watchOrRelease">
  ledger: PaymentLedger
  sessions: { session(sessionId: string): Promise<SessionRecord | undefined> }
  medusa: Pick<MedusaChanges, "apply" | "checkoutCompleting" | "finishBookkeeping">
  /** The provider as the ledger records it (`nexi-apm-psp-b_nexi`): another entry's transactions are not this sync's. */
  providerKey: string
}

export class MobileSync {
  constructor(private readonly deps: MobileSyncDeps) {}

  /** The current payment of a Medusa payment session (the status poll, the admin's Sync). */
  async session(sessionId: string): Promise<SyncOutcome> {
    const session = await this.deps.sessions.session(sessionId)
    return session ? this.applyRead(session) : "unchanged"
  }

  /** A transaction the ledger says is unsettled (the job): its writes first, then the transaction. */
  async attempt(gatewayRef: string): Promise<SyncOutcome> {
    const attempt = await this.deps.ledger.findAttempt(gatewayRef)
    if (attempt && attempt.provider_identifier !== this.deps.providerKey) return "unchanged"
    // A session that cannot be read throws here: read as deleted, a paid payment would be reversed.
    const session = attempt?.session_id ? await this.deps.sessions.session(attempt.session_id) : undefined
    const owner = session && this.deps.service.transactionOf(session) === gatewayRef ? session : undefined
    await this.deps.service.settleWrites(gatewayRef, owner)
    // A paid one's refund whose workflow died gets the rest of Medusa's bookkeeping.
    if (attempt?.state === "paid" && owner) return this.deps.medusa.finishBookkeeping(owner.id, gatewayRef)
    // Closed and released attempts are done: only their writes were to settle.
    if (!attempt || (attempt.state !== "open" && attempt.state !== "superseded")) return "unchanged"
    if (owner) return this.applyRead(owner)
    await this.deps.service.watchOrRelease(attempt)
    return "unchanged"
  }

  /** The session's transaction read once; its watch in the ledger moves on with what Medusa took in. */
  private async applyRead(session: SessionRecord): Promise<SyncOutcome> {
    const read = await this.deps.service.readPayment(session)
    if (!read) return "unchanged"
    const attempt = await this.deps.ledger.findAttempt(read.transactionId)
    // Left as it is, still watched: the shopper's checkout, completing the cart now, authorizes it.
    if (await this.deps.medusa.checkoutCompleting(session, read.status, attempt?.cart_id)) return "left_to_checkout"
    const { status, reason, currency, amountMinor } = read
    const outcome = await this.deps.medusa.apply(session, {
      status,
      reason,
      currency,
      authorizedMinor: amountMinor,
      capturedMinor: amountMinor,
      gatewayRef: read.transactionId,
    })
    // The watch moves once Medusa took the read in: a completion that failed, or that another
    // caller is making, leaves the attempt to be read again.
    if (attempt && outcome !== "left_to_checkout")
      await this.deps.ledger.updateAttempt(read.transactionId, watchAfterRead(attempt, status, new Date(), reason))
    return outcome
  }
}

/** The sync of one mobile scheme's payments of the store entry behind `providerId`. */
export function mobileSyncFor(container: MedusaContainer, providerId: string, method: ApmMethod): MobileSync {
  const service = transactionsFor(container, providerId, method)
  const ledger = ledgerOf(container)
  const { records, providerKey } = service.deps
  return new MobileSync({ service, ledger, sessions: records, medusa: medusaChangesOf(container, ledger), providerKey })
}

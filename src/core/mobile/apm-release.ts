/**
 * A transaction no live session owns any more (its session was replaced or deleted, or its
 * start's answer was lost) is watched until it ends. While it waits in the shopper's app it is
 * reversed, so it cannot be approved (the session's own reversal was best effort; a lost start's
 * never had one). If the shopper paid it after all, it is released: reversed in full, because
 * nothing in Medusa points at it, so no order will ever come of it and nobody would otherwise
 * see the money held.
 */
import type { ExtendedEnvelope } from "../../apm/schemas"
import { NotFoundError } from "../../http/errors"
import type { PaymentAttempt } from "../../modules/nexi-ledger/types"
import { watchAfterRead } from "../attempt-watch"
import type { ApmWrites } from "./apm-writes"
import { readMobileTransaction } from "./mobile-transaction"

const ACTION = "release the payment"

export async function watchOrRelease(writes: ApmWrites, attempt: PaymentAttempt): Promise<void> {
  const { apm, client, ledger, logger, method } = writes.deps
  const transactionId = attempt.gateway_ref
  let envelope: ExtendedEnvelope
  try {
    envelope = await client.getTransaction(transactionId)
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error
    // Not a transaction of these credentials (now): read less and less often, then no longer.
    await ledger.updateAttempt(transactionId, watchAfterRead(attempt, "pending", new Date()))
    return
  }
  const state = readMobileTransaction(envelope)
  const paid = state.status === "authorized" || state.status === "captured"
  // Without a terminalReference no reversal can be sent: a pending one is watched until the scheme ends it.
  const approvable = state.status === "pending" && apm.terminalReference !== undefined
  if (!paid && !approvable) {
    await ledger.updateAttempt(transactionId, watchAfterRead(attempt, state.status, new Date(), state.reason))
    return
  }
  const reversalId = await writes.reverse(writes.heldAtService(transactionId, envelope, ACTION), {
    origin: "release",
    key: `${transactionId}:release`,
    medusaRef: attempt.session_id,
    action: ACTION,
  })
  if (!paid) {
    await ledger.updateAttempt(transactionId, {
      state: "closed",
      next_check_at: null,
      note: "Still waiting for approval when no session owned it any more; reversed so it cannot be approved",
    })
    return
  }
  await ledger.updateAttempt(transactionId, {
    state: "released",
    released_at: new Date(),
    next_check_at: null,
    note: "Paid after its session was replaced or deleted; reversed",
  })
  logger?.error(
    `nexi: ${method} transaction ${transactionId} (cart ${attempt.cart_id ?? "unknown"}) was paid after its payment session was replaced or deleted; reversed it with transaction ${reversalId} so the shopper gets the money back`,
  )
}

/**
 * Runs an action with Medusa's locking module holding a key, so two callers at once cannot
 * both send the same gateway write or record the same money (two MOTO charges, two refunds
 * recorded for one cancel, one back-office refund recorded by its notification, the job and
 * a staff Sync at once). A caller that cannot get the lock in time is told to wait rather than
 * queued behind a gateway call that may take a while.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"

const WAIT_SECONDS = 5
/** A probe that could not give the cart's lock back holds it no longer than this. */
const PROBE_EXPIRE_SECONDS = 2

/** What lockedOrBusy answers when another caller holds the key. */
export const BUSY = Symbol("busy")

/** Runs `job` holding `key`, or answers BUSY once `waitSeconds` passed with the key held by another. */
export async function lockedOrBusy<T>(
  container: MedusaContainer,
  key: string,
  job: () => Promise<T>,
  waitSeconds = WAIT_SECONDS,
): Promise<T | typeof BUSY> {
  const locking = container.resolve(Modules.LOCKING)
  let started = false
  try {
    return await locking.execute(
      key,
      () => {
        started = true
        return job()
      },
      { timeout: waitSeconds },
    )
  } catch (error) {
    if (started) throw error
    return BUSY
  }
}

export async function withLock<T>(
  container: MedusaContainer,
  key: string,
  busy: string,
  job: () => Promise<T>,
  waitSeconds = WAIT_SECONDS,
): Promise<T> {
  const result = await lockedOrBusy(container, key, job, waitSeconds)
  if (result === BUSY)
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `${busy} Wait for it to finish, then look again.`)
  return result
}

/**
 * The one lock of a Medusa payment: whatever changes its captures or refunds (a staff action,
 * recording what the gateway did outside Medusa) holds it. Not re-entrant: a holder must not
 * call another holder. With several processes (server and worker), the lock is shared only
 * through a shared locking provider (docs/production.md).
 */
export function withPaymentLock<T>(
  container: MedusaContainer,
  paymentId: string,
  job: () => Promise<T>,
  waitSeconds?: number,
): Promise<T> {
  return withLock(
    container,
    `nexi-payment:${paymentId}`,
    `Another action on payment ${paymentId} is under way.`,
    job,
    waitSeconds,
  )
}

/**
 * Whether someone holds Medusa's lock of a cart right now: the shopper's checkout completing it,
 * most often. Tried as Medusa's own lock step tries it, without waiting (every locking provider
 * refuses a held key with "Failed to acquire lock"); taken, it is given back at once. A locking
 * module that fails otherwise says nothing about the cart: false, and the caller goes on as if
 * the cart were free, into Medusa's workflow, which waits for the lock itself.
 */
export async function isCartLocked(container: MedusaContainer, cartId: string): Promise<boolean> {
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `nexi-cart-probe:${randomUUID()}`
  try {
    await locking.acquire(cartId, { ownerId, expire: PROBE_EXPIRE_SECONDS })
  } catch (error) {
    return /Failed to acquire lock/.test((error as Error).message ?? "")
  }
  // Not given back (the locking module failed): the key expires within PROBE_EXPIRE_SECONDS, so
  // a checkout waits that long at most. The answer, free, stands either way; nothing moves money here.
  await locking.release(cartId, { ownerId }).catch(() => undefined)
  return false
}

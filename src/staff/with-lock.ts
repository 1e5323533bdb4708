/**
 * Runs an admin action with Medusa's locking module holding `key`, so two members of staff
 * clicking at once cannot both send the same gateway write (two MOTO charges, two refunds
 * recorded for one cancel). The second one is told to wait rather than queued behind a
 * gateway call that may take a while.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"

const WAIT_SECONDS = 5

export async function withLock<T>(container: MedusaContainer, key: string, busy: string, job: () => Promise<T>): Promise<T> {
  const locking = container.resolve(Modules.LOCKING)
  let started = false
  try {
    return await locking.execute(
      key,
      () => {
        started = true
        return job()
      },
      { timeout: WAIT_SECONDS },
    )
  } catch (error) {
    if (started) throw error
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `${busy} Wait for it to finish, then look again.`)
  }
}

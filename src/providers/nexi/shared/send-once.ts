/**
 * Sends one money write so that it moves money at most once, whatever is lost on the way.
 *
 * The write is recorded in the ledger before it is sent. A write the ledger already holds as
 * executed is answered from the ledger; one whose outcome was never learnt is first looked
 * up at the gateway. When the answer is lost (the transport's retries with the same key are
 * spent), the gateway's own record decides: executed is a success, absent is an error saying
 * nothing was done, and a gateway that cannot be read is an error saying so, telling staff
 * not to press again (the reconciliation job settles it later). See docs/ledger.md.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { AuthenticationError, InvalidRequestError, NotFoundError } from "../../../http/errors"
import type { MoneyWrite, NewWrite, PaymentLedger } from "../../../modules/nexi-ledger/types"

/**
 * A write still `requested` this long after it was recorded was cut off (the process
 * stopped): longer than the transport's retries can take, so it is not one still in flight.
 */
export const STALE_REQUEST_MS = 2 * 60 * 1000

/** A write whose outcome the ledger does not know, and that no call is still waiting for. */
export function isUnsettled(write: MoneyWrite, now = new Date()): boolean {
  if (write.outcome === "unknown") return true
  return write.outcome === "requested" && now.getTime() - new Date(write.updated_at).getTime() > STALE_REQUEST_MS
}

export interface OnceWrite {
  ledger: PaymentLedger
  write: NewWrite
  /** The write in a merchant's words: "refund of 5.00 EUR". */
  label: string
  /** What Medusa asked for, for messages: "refund the payment". */
  action: string
  /** Sends the write (with `write.idempotency_key` where the API takes one); the new operation or transaction id. */
  send(): Promise<string>
  /**
   * Reads the gateway: the id of the operation this write made, or undefined when the
   * gateway's record shows it was not made. Throws when the gateway cannot be read.
   */
  findExecuted(write: MoneyWrite): Promise<string | undefined>
}

/** Answers that say the gateway looked at the request and did nothing. */
function isRefusal(error: unknown): boolean {
  return error instanceof InvalidRequestError || error instanceof NotFoundError || error instanceof AuthenticationError
}

export function outcomeUnknownError(action: string, label: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Could not ${action}: the gateway did not answer, and it cannot be read now to tell whether the ${label} was made. Do not try again: the plugin reads the gateway every minute and records the ${label} in Medusa if it was made.`,
  )
}

function notMadeError(action: string, label: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Could not ${action}: the gateway did not answer, and its own record shows the ${label} was not made. Nothing was done; you can try again.`,
  )
}

async function recordOrRefuse(plan: OnceWrite): Promise<MoneyWrite> {
  try {
    return await plan.ledger.requestWrite(plan.write)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${plan.action}: the ${plan.label} could not be recorded in the Nexi ledger (${(error as Error).message}). Nothing was sent to the gateway.`,
    )
  }
}

/** The gateway operation id of the write, sent at most once. */
export async function sendOnce(plan: OnceWrite): Promise<string> {
  const { ledger, write } = plan
  const claimant = write.medusa_ref ?? null
  const record = await recordOrRefuse(plan)
  if (record.outcome === "executed" && record.gateway_operation_id) return record.gateway_operation_id
  if (isUnsettled(record)) {
    // An earlier call with this key never learnt its outcome: ask the gateway before sending.
    const made = await findOrUnknown(plan, record)
    if (made) return settleExecuted(plan, made, claimant)
  }
  let operationId: string
  try {
    operationId = await plan.send()
  } catch (error) {
    if (isRefusal(error)) {
      // Thrown as it came, so a caller can read the gateway's refusal (a second capture, say).
      await ledger.settleWrite(write.idempotency_key, { outcome: "refused", message: (error as Error).message })
      throw error
    }
    // No answer, or one we could not read: the gateway's record decides.
    const made = await findOrUnknown(plan, record)
    if (!made) {
      await ledger.settleWrite(write.idempotency_key, { outcome: "refused", message: "not in the gateway's record after a lost answer" })
      throw notMadeError(plan.action, plan.label)
    }
    operationId = made
  }
  return settleExecuted(plan, operationId, claimant)
}

async function findOrUnknown(plan: OnceWrite, record: MoneyWrite): Promise<string | undefined> {
  try {
    return await plan.findExecuted(record)
  } catch {
    try {
      await plan.ledger.settleWrite(plan.write.idempotency_key, { outcome: "unknown" })
    } catch {
      // Left "requested", which the job treats as unknown too; the error below stands either way.
    }
    throw outcomeUnknownError(plan.action, plan.label)
  }
}

async function settleExecuted(plan: OnceWrite, operationId: string, claimant: string | null): Promise<string> {
  try {
    await plan.ledger.settleWrite(plan.write.idempotency_key, { outcome: "executed", gateway_operation_id: operationId, claimed_by: claimant })
  } catch {
    // The money moved but the ledger did not take it: Medusa must not record it as done
    // either, or the two disagree; the job finds the executed write at the gateway.
    throw outcomeUnknownError(plan.action, plan.label)
  }
  return operationId
}

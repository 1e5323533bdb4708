/**
 * The one sender of gateway writes: every write moves money (or opens an order) at most
 * once, whatever is lost on the way. See docs/ledger.md, "A lost answer".
 *
 * A money write is recorded in the ledger before it is sent. A write the ledger already holds
 * as executed is answered from the ledger; one whose outcome was never learnt is first looked
 * up at the gateway. When the answer is lost (the transport's retries with the same key are
 * spent), the gateway's own record decides: executed is a success, absent is an error saying
 * nothing was done, and a gateway that cannot be read is an error saying so. How the record is
 * read is the recovery the write names (found-by-operation.ts, found-by-order-id.ts,
 * found-by-key.ts).
 */
import { MedusaError } from "@medusajs/framework/utils"
import { AuthenticationError, InvalidRequestError, NotFoundError } from "../http/errors"
import type { MoneyWrite, NewWrite, PaymentLedger } from "../modules/nexi-ledger/types"

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

/** How a write whose answer was lost is found again at the gateway: a strategy the write names. */
export interface Recovery {
  /**
   * The id of the operation (or transaction) the write made, or undefined when the gateway's
   * record shows it was not made. Throws when the gateway cannot be read.
   */
  find(
    write: Pick<MoneyWrite, "kind" | "idempotency_key" | "gateway_ref" | "target_ref" | "amount_minor">,
  ): Promise<string | undefined>
  /**
   * A refusal can mean the write was made already, so the record is read before it is called
   * refused: the gateway takes no key for the write (a cancel: a second sender is refused once
   * the first one's cancel stands), or it refuses an order id it has seen.
   */
  refusalMayMeanMade: boolean
  /**
   * What staff are told when the record cannot be read: `wait` for the job to settle it, or
   * `repeat` the request, which reads the gateway first (an order id fixed for the attempt).
   */
  whenUnreadable: "wait" | "repeat"
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
  recover: Recovery
}

/** The gateway answered, and its answer says nothing was made (a declined card): thrown by a write's `send`. */
export class NotMadeError extends Error {}

/** Answers that say the gateway looked at the request and did nothing. */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof InvalidRequestError ||
    error instanceof NotFoundError ||
    error instanceof AuthenticationError ||
    error instanceof NotMadeError
  )
}

export function outcomeUnknownError(
  action: string,
  label: string,
  whenUnreadable: Recovery["whenUnreadable"] = "wait",
): MedusaError {
  const message =
    whenUnreadable === "repeat"
      ? `Could not ${action}: the outcome of the ${label} is unknown: the gateway could not be read. Send the same request again: it reads the gateway first and never acts twice.`
      : `Could not ${action}: the gateway did not answer, and it cannot be read now to tell whether the ${label} was made. Do not try again: the plugin reads the gateway every minute and records the ${label} in Medusa if it was made.`
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, message)
}

function lostNotMadeError(action: string, label: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Could not ${action}: the gateway did not answer, and its own record shows the ${label} was not made. Nothing was done; you can try again.`,
  )
}

/** What one send found out: the operation made, or why nothing was (the error to throw). */
type Sent = { made: string } | { notMade: Error; message: string }

interface Words {
  action: string
  label: string
}

/**
 * Sends once; after a lost answer, or a refusal the recovery says may hide a success, the
 * gateway's record decides. `find` throws when the record cannot be read.
 */
async function sendThenFind(
  send: () => Promise<string>,
  refusalMayMeanMade: boolean,
  find: () => Promise<string | undefined>,
  words: Words,
): Promise<Sent> {
  try {
    return { made: await send() }
  } catch (error) {
    const refused = isRefusal(error)
    // Thrown as it came, so a caller can read the gateway's refusal (a second capture, say).
    if (refused && !refusalMayMeanMade) return { notMade: error as Error, message: (error as Error).message }
    const made = await find()
    if (made) return { made }
    if (refused) return { notMade: error as Error, message: (error as Error).message }
    return {
      notMade: lostNotMadeError(words.action, words.label),
      message: "not in the gateway's record after a lost answer",
    }
  }
}

/**
 * Sends a write the ledger does not hold because it moves no money (a card verification),
 * with the same rules for a lost answer; the operation id. Its recovery needs no ledger record.
 */
export async function sendUnrecorded(
  send: () => Promise<string>,
  recover: Omit<Recovery, "find"> & { find(): Promise<string | undefined> },
  words: Words,
): Promise<string> {
  const find = () =>
    recover.find().catch(() => {
      throw outcomeUnknownError(words.action, words.label, recover.whenUnreadable)
    })
  const sent = await sendThenFind(send, recover.refusalMayMeanMade, find, words)
  if ("made" in sent) return sent.made
  throw sent.notMade
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
  const record = await recordOrRefuse(plan)
  if (record.outcome === "executed" && record.gateway_operation_id) return record.gateway_operation_id
  const find = () => findOrUnknown(plan, record)
  if (isUnsettled(record)) {
    // An earlier call with this key never learnt its outcome: ask the gateway before sending.
    const made = await find()
    if (made) return settleExecuted(plan, made)
  }
  const sent = await sendThenFind(plan.send, plan.recover.refusalMayMeanMade, find, plan)
  if ("made" in sent) return settleExecuted(plan, sent.made)
  const settled = await plan.ledger.settleWrite(plan.write.idempotency_key, {
    outcome: "refused",
    message: sent.message,
  })
  // Another sender of the same write made it meanwhile (a write without a key): its success stands.
  if (settled.outcome === "executed" && settled.gateway_operation_id) return settled.gateway_operation_id
  throw sent.notMade
}

async function findOrUnknown(plan: OnceWrite, record: MoneyWrite): Promise<string | undefined> {
  try {
    return await plan.recover.find(record)
  } catch {
    try {
      await plan.ledger.settleWrite(plan.write.idempotency_key, { outcome: "unknown" })
    } catch {
      // Left "requested", which the job treats as unknown too; the error below stands either way.
    }
    throw outcomeUnknownError(plan.action, plan.label, plan.recover.whenUnreadable)
  }
}

async function settleExecuted(plan: OnceWrite, operationId: string): Promise<string> {
  try {
    await plan.ledger.settleWrite(plan.write.idempotency_key, {
      outcome: "executed",
      gateway_operation_id: operationId,
      claimed_by: plan.write.medusa_ref ?? null,
    })
  } catch {
    // The money moved but the ledger did not take it: Medusa must not record it as done
    // either, or the two disagree; the job finds the executed write at the gateway.
    throw outcomeUnknownError(plan.action, plan.label)
  }
  return operationId
}

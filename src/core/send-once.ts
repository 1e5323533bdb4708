/**
 * The one sender of gateway writes: every write moves money (or opens an order) at most
 * once, whatever is lost on the way. See docs/ledger.md, "A lost answer".
 *
 * A money write is recorded in the ledger before it is sent. A write the ledger already holds
 * as executed is answered from the ledger; one whose outcome was never learnt is first looked
 * up at the gateway. When the answer is lost (the transport's retries with the same key are
 * spent), the gateway's own record decides: executed is a success, absent is an error saying
 * nothing was done, and a gateway that cannot be read is an error saying so. How the record is
 * read is the recovery the write names: by the operation it made or the order id it opened
 * (card-writes.ts), by its request's key (apm-writes.ts).
 *
 * Before a new write, the earlier writes of the same gateway order are settled and matched to
 * their Medusa rows (the second half of this file).
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { AuthenticationError, InvalidRequestError, NotFoundError } from "../http/errors"
import {
  isStanding,
  isUnclaimed,
  type MoneyWrite,
  type NewWrite,
  type PaymentLedger,
  type WriteKind,
} from "../modules/nexi-ledger/types"
import { LONGEST_CALL_MS } from "./options"

/**
 * A write still `requested` this long after it was recorded was cut off (the process
 * stopped): longer than its send and the read after a lost answer can take with every retry
 * the options allow, so it is not one still in flight.
 */
export const STALE_REQUEST_MS = 2 * LONGEST_CALL_MS + 10_000

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
    write: Pick<MoneyWrite, "kind" | "idempotency_key" | "gateway_ref" | "target_ref" | "amount_minor" | "created_at">,
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

/**
 * Found again by sending again: for a write that takes no key and that the gateway answers the
 * same when repeated (ending a saved card's contract, cancelling a payment link). `notMade`
 * names the refusals that mean the write was not made and cannot be (a link paid meanwhile).
 */
export class BySendingAgain implements Recovery {
  readonly refusalMayMeanMade = false
  readonly whenUnreadable = "wait"

  constructor(
    private readonly send: () => Promise<string>,
    private readonly notMade: (error: unknown) => boolean = () => false,
  ) {}

  async find(): Promise<string | undefined> {
    try {
      return await this.send()
    } catch (error) {
      if (this.notMade(error)) return undefined
      throw error
    }
  }
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

function outcomeUnknownError(
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
  const settled = await plan.ledger.updateWrite(plan.write.idempotency_key, {
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
      await plan.ledger.updateWrite(plan.write.idempotency_key, { outcome: "unknown" })
    } catch {
      // Left "requested", which the job treats as unknown too; the error below stands either way.
    }
    throw outcomeUnknownError(plan.action, plan.label, plan.recover.whenUnreadable)
  }
}

async function settleExecuted(plan: OnceWrite, operationId: string): Promise<string> {
  try {
    await plan.ledger.updateWrite(plan.write.idempotency_key, {
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

// The earlier writes of a gateway order or mobile transaction, settled before a new one is
// sent, and matched to Medusa's rows by Medusa's id, card and mobile alike. See docs/ledger.md,
// "Medusa calls again with a new id" and "A process killed mid-call".
//
// Each capture or refund write carries the id of Medusa's row (`medusa_ref`). Medusa deletes
// that row when the provider throws; a process killed mid-call leaves it standing. A write
// whose row stands is that row's: made, it is claimed for it; never made, it is sent again
// under its own key; refused when sent again, it stays claimed by its row (staff's list of
// ledger issues) and a warning says so. Only an executed write whose row is gone is an orphan,
// which a new request for the same money takes over instead of sending it again: "no record
// claimed it" is never the test.
//

/** Medusa's own rows, read by the id a write carries. */
export interface MedusaRows {
  /** Whether Medusa still holds the row the write was sent for; false for a write with no row of its own. Throws when it cannot be read. */
  holdsRowOf(write: Pick<MoneyWrite, "kind" | "medusa_ref">): Promise<boolean>
  /**
   * Whether `holder` names a Medusa row of the write's kind (a capture or a refund, by Medusa's
   * id) that Medusa deleted since; false for any other holder (a payment). Throws when it cannot be read.
   */
  rowDeleted(kind: WriteKind, holder: string): Promise<boolean>
}

/** How an earlier write is sent again under its own key, and found again: undefined for a write this caller does not settle. */
export type ResendOf = (
  write: MoneyWrite,
  writes: MoneyWrite[],
) => Promise<Pick<OnceWrite, "send" | "recover"> | undefined>

export interface EarlierWrites {
  ledger: PaymentLedger
  rows: MedusaRows
  /** What Medusa asked for, for messages: "refund the payment". */
  action: string
  /** A write in a merchant's words: "refund of 5.00 EUR". */
  label(write: MoneyWrite): string
  resendOf: ResendOf
  logger?: Logger
}

/**
 * Every write of `gatewayRef`, settled: an outcome never learnt is read from the gateway, and
 * each write is matched to its Medusa row (see the header). A gateway or a Medusa row that
 * cannot be read refuses the new write: sending it could pay twice.
 * @param exceptKey the new write's own key, which its own sendOnce settles
 */
export async function settledWritesOf(
  context: EarlierWrites,
  gatewayRef: string,
  exceptKey?: string,
): Promise<MoneyWrite[]> {
  const writes = await context.ledger.writesOf(gatewayRef)
  let changed = false
  for (const write of writes) {
    if (write.idempotency_key === exceptKey) continue
    if (isUnsettled(write)) {
      const resend = await context.resendOf(write, writes)
      if (!resend) continue
      await settleLost(context, write, resend)
      changed = true
    } else if (isUnclaimed(write) && (await holdsRow(context, write))) {
      changed = (await context.ledger.claimWrite(write.id, write.medusa_ref as string)) || changed
    }
  }
  return changed ? context.ledger.writesOf(gatewayRef) : writes
}

async function holdsRow(context: EarlierWrites, write: MoneyWrite): Promise<boolean> {
  try {
    return await context.rows.holdsRowOf(write)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${context.action}: the Medusa record of an earlier ${context.label(write)} on this payment could not be read (${(error as Error).message}). Nothing was sent; try again once it can be read.`,
    )
  }
}

type Resend = NonNullable<Awaited<ReturnType<ResendOf>>>

async function settleLost(context: EarlierWrites, write: MoneyWrite, resend: Resend): Promise<void> {
  if (await holdsRow(context, write)) return sendToItsRow(context, write, resend)
  let made: string | undefined
  try {
    made = await resend.recover.find(write)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${context.action}: an earlier ${context.label(write)} on this payment has an unknown outcome, and the gateway cannot be read now (${(error as Error).message}). Nothing was sent; try again once the gateway answers.`,
    )
  }
  await context.ledger.updateWrite(
    write.idempotency_key,
    made
      ? { outcome: "executed", gateway_operation_id: made }
      : { outcome: "refused", message: "not in the gateway's record" },
  )
}

/**
 * A write whose Medusa row stands (the process stopped after recording both, before it heard
 * the answer) goes through the sender again under its own key: made, it is claimed for its
 * row; never made, it is sent now. Sent now and lost on the way again (the gateway's record shows
 * it not made), it is unknown again, and the next read of the order sends it: its row still
 * stands. A gateway that refuses it leaves Medusa showing money that did not move: the write
 * stays claimed by the row, which puts it on staff's list of ledger issues, and a warning says so.
 */
async function sendToItsRow(context: EarlierWrites, write: MoneyWrite, resend: Resend): Promise<void> {
  try {
    await sendOnce({ ledger: context.ledger, write, action: context.action, label: context.label(write), ...resend })
  } catch (error) {
    const settled = (await context.ledger.writesOf(write.gateway_ref)).find((other) => other.id === write.id)
    if (settled?.outcome !== "refused") throw error
    if (!isRefusal(error)) {
      await context.ledger.updateWrite(write.idempotency_key, { outcome: "unknown", message: (error as Error).message })
      throw error
    }
    await context.ledger.updateWrite(write.idempotency_key, {
      claimed_by: write.medusa_ref,
      message: (error as Error).message,
    })
    context.logger?.warn(
      `nexi: Medusa ${write.kind} ${write.medusa_ref} (${context.label(write)}) stands, but the gateway refused to make it on ${write.gateway_ref}: ${(error as Error).message}`,
    )
  }
}

/** Executed writes of `kind` held by no Medusa row, after settledWritesOf: money the gateway moved that Medusa does not show. */
export function orphanedWrites(writes: MoneyWrite[], kind: WriteKind): MoneyWrite[] {
  return writes.filter((write) => write.kind === kind && isUnclaimed(write))
}

/**
 * Hands orphaned writes of `kind` (settled by settledWritesOf) to `claimant` while they fit in
 * `amountMinor`, so a new request for the same money takes over what the gateway already did;
 * first those an earlier try of the same Medusa record took already. A write whose holder
 * Medusa deleted after the gateway made it (Medusa's own update failed) is an orphan too, taken
 * from that holder only: one another request took meanwhile stays its. Returns what it holds.
 * @param ownKey the new write's own key: never its own orphan
 */
export async function claimOrphans(
  context: { ledger: PaymentLedger; rows: MedusaRows; action: string },
  writes: MoneyWrite[],
  { kind, amountMinor, claimant, ownKey }: { kind: WriteKind; amountMinor: bigint; claimant: string; ownKey: string },
): Promise<MoneyWrite[]> {
  const others = writes.filter((write) => write.kind === kind && write.idempotency_key !== ownKey)
  // A refund the scheme rejected moved no money and is never taken over.
  const made = others.filter(isStanding)
  const claimed = made.filter((write) => write.claimed_by === claimant)
  const heldElsewhere = made.filter((write) => write.claimed_by !== null && write.claimed_by !== claimant)
  let total = totalMinor(claimed)
  for (const write of [...orphanedWrites(others, kind), ...heldElsewhere]) {
    const amount = BigInt(write.amount_minor)
    if (total + amount > amountMinor || !(await takeOver(context, write, claimant))) continue
    claimed.push(write)
    total += amount
  }
  return claimed
}

async function takeOver(
  context: { ledger: PaymentLedger; rows: MedusaRows; action: string },
  write: MoneyWrite,
  claimant: string,
): Promise<boolean> {
  if (write.claimed_by === null) return context.ledger.claimWrite(write.id, claimant)
  let deleted: boolean
  try {
    deleted = await context.rows.rowDeleted(write.kind, write.claimed_by)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${context.action}: Medusa's ${write.kind} ${write.claimed_by}, which records gateway operation ${write.gateway_operation_id}, could not be read (${(error as Error).message}). Nothing was sent; try again once it can be read.`,
    )
  }
  return deleted && context.ledger.claimWrite(write.id, claimant, write.claimed_by)
}

/** What the claimed writes add up to, in minor units. */
export function totalMinor(writes: MoneyWrite[]): bigint {
  return writes.reduce((sum, write) => sum + BigInt(write.amount_minor), 0n)
}

/**
 * Medusa deletes its row when the provider throws, so what a failed write took over must be
 * free again for the next one; otherwise that one would send the money a second time.
 */
export async function freeClaims(ledger: PaymentLedger, claimed: MoneyWrite[], action: string): Promise<void> {
  for (const write of claimed) {
    try {
      await ledger.updateWrite(write.idempotency_key, { claimed_by: null })
    } catch (error) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}, and the ${write.kind} ${write.gateway_operation_id} it had taken over could not be freed in the Nexi ledger (${(error as Error).message}). It stays held by this request, which Medusa drops: the next request for the same money takes it over, and sends nothing twice.`,
      )
    }
  }
}

/**
 * The earlier writes of a gateway order or mobile transaction, settled before a new one is
 * sent, and matched to Medusa's rows by Medusa's id, card and mobile alike. See docs/ledger.md,
 * "Medusa calls again with a new id" and "A process killed mid-call".
 *
 * Each capture or refund write carries the id of Medusa's row (`medusa_ref`). Medusa deletes
 * that row when the provider throws; a process killed mid-call leaves it standing. A write
 * whose row stands is that row's: made, it is claimed for it; never made, it is sent again
 * under its own key; refused when sent again, it stays claimed by its row (staff's list of
 * ledger issues) and a warning says so. Only an executed write whose row is gone is an orphan,
 * which a new request for the same money takes over instead of sending it again: "no record
 * claimed it" is never the test.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { MoneyWrite, PaymentLedger, WriteKind } from "../modules/nexi-ledger/types"
import { isUnsettled, type OnceWrite, sendOnce } from "./send-once"

/** Medusa's own rows, read by the id a write carries. */
export interface MedusaRows {
  /** Whether Medusa still holds the row the write was sent for; false for a write with no row of its own. Throws when it cannot be read. */
  holdsRowOf(write: Pick<MoneyWrite, "kind" | "medusa_ref">): Promise<boolean>
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

/** Executed, and held by no Medusa row: the sender's row was deleted, or it was not matched yet. */
function isUnclaimed(write: MoneyWrite): boolean {
  return (
    write.outcome === "executed" && !write.claimed_by && write.origin !== "release" && write.follow_state !== "rejected"
  )
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
  await context.ledger.settleWrite(
    write.idempotency_key,
    made
      ? { outcome: "executed", gateway_operation_id: made }
      : { outcome: "refused", message: "not in the gateway's record" },
  )
}

/**
 * A write whose Medusa row stands (the process stopped after recording both, before it heard
 * the answer) goes through the sender again under its own key: made, it is claimed for its
 * row; never made, it is sent now. A gateway that refuses it leaves Medusa showing money that
 * did not move: the write stays claimed by the row, which puts it on staff's list of ledger
 * issues, and a warning says so.
 */
async function sendToItsRow(context: EarlierWrites, write: MoneyWrite, resend: Resend): Promise<void> {
  try {
    await sendOnce({ ledger: context.ledger, write, action: context.action, label: context.label(write), ...resend })
  } catch (error) {
    const settled = (await context.ledger.writesOf(write.gateway_ref)).find((other) => other.id === write.id)
    if (settled?.outcome !== "refused") throw error
    await context.ledger.settleWrite(write.idempotency_key, {
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
 * first those an earlier try of the same Medusa record took already. Returns what it holds.
 * @param ownKey the new write's own key: never its own orphan
 */
export async function claimOrphans(
  ledger: PaymentLedger,
  writes: MoneyWrite[],
  { kind, amountMinor, claimant, ownKey }: { kind: WriteKind; amountMinor: bigint; claimant: string; ownKey: string },
): Promise<MoneyWrite[]> {
  const others = writes.filter((write) => write.kind === kind && write.idempotency_key !== ownKey)
  // A refund the scheme rejected moved no money and is never taken over.
  const claimed = others.filter(
    (write) => write.outcome === "executed" && write.claimed_by === claimant && write.follow_state !== "rejected",
  )
  let total = claimed.reduce((sum, write) => sum + BigInt(write.amount_minor), 0n)
  for (const write of orphanedWrites(others, kind)) {
    const amount = BigInt(write.amount_minor)
    if (total + amount > amountMinor || !(await ledger.claimWrite(write.id, claimant))) continue
    claimed.push(write)
    total += amount
  }
  return claimed
}

/** What the claimed writes add up to, in minor units. */
export function totalMinor(writes: MoneyWrite[]): bigint {
  return writes.reduce((sum, write) => sum + BigInt(write.amount_minor), 0n)
}

/**
 * Medusa deletes its row when the provider throws, so what a failed write took over must be
 * free again for the next one; otherwise that one would send the money a second time.
 */
export async function releaseClaims(ledger: PaymentLedger, claimed: MoneyWrite[], action: string): Promise<void> {
  for (const write of claimed) {
    try {
      await ledger.settleWrite(write.idempotency_key, { claimed_by: null })
    } catch (error) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}, and the ${write.kind} ${write.gateway_operation_id} it had taken over could not be freed in the Nexi ledger (${(error as Error).message}). Do not try again before support has set claimed_by of ledger write ${write.id} back to empty.`,
      )
    }
  }
}

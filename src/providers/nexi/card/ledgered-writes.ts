/**
 * The card provider's money writes, each through the ledger (send-once.ts): before a new
 * write, earlier writes of the same gateway order whose outcome is unknown are settled from
 * the gateway's record, and executed writes that no Medusa record accounts for any more
 * (Medusa rolled its row back after the error) are taken over instead of sending the money
 * again.
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../../gateway/gateway-client"
import type { MoneyWrite, NewWrite, PaymentLedger, WriteKind } from "../../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../../money/amount"
import { isUnsettled, sendOnce } from "../shared/send-once"
import { executedOperationFor } from "./executed-operation"

export interface CardWriteContext {
  gateway: GatewayClient
  ledger: PaymentLedger
  /** What Medusa asked for, for messages: "refund the payment". */
  action: string
}

const KIND_WORDS: Partial<Record<WriteKind, string>> = {
  capture: "capture",
  refund: "refund",
  void: "void",
  cancel_capture: "cancel of a capture",
}

export function writeLabel(write: Pick<NewWrite, "kind" | "amount_minor" | "currency">): string {
  return `${KIND_WORDS[write.kind] ?? write.kind} of ${minorToMajorString(write.amount_minor, write.currency)} ${write.currency}`
}

/** The operation id the write made, from the gateway order; undefined when it made none. */
export async function findExecuted(context: CardWriteContext, write: MoneyWrite): Promise<string | undefined> {
  const details = await context.gateway.getOrder(write.gateway_ref)
  const others = (await context.ledger.writesOf(write.gateway_ref)).filter((other) => other.idempotency_key !== write.idempotency_key)
  const taken = new Set(others.map((other) => other.gateway_operation_id).filter((id): id is string => Boolean(id)))
  return executedOperationFor(write, details, taken)
}

/** Sends one write through the ledger; the gateway's operation id. */
export function sendCardWrite(context: CardWriteContext, write: NewWrite, send: () => Promise<string>): Promise<string> {
  return sendOnce({
    ledger: context.ledger,
    write,
    label: writeLabel(write),
    action: context.action,
    send,
    findExecuted: (recorded) => findExecuted(context, recorded),
  })
}

/**
 * Every write of the order, with those whose outcome was unknown settled from the gateway.
 * A gateway that cannot be read refuses the new write: sending it could pay twice.
 */
export async function settledWritesOf(context: CardWriteContext, orderId: string): Promise<MoneyWrite[]> {
  const writes = await context.ledger.writesOf(orderId)
  const unsettled = writes.filter((write) => isUnsettled(write))
  for (const write of unsettled) {
    let made: string | undefined
    try {
      made = await findExecuted(context, write)
    } catch (error) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${context.action}: an earlier ${writeLabel(write)} on this payment has an unknown outcome, and the gateway cannot be read now (${(error as Error).message}). Nothing was sent; try again once the gateway answers.`,
      )
    }
    await context.ledger.settleWrite(
      write.idempotency_key,
      made ? { outcome: "executed", gateway_operation_id: made } : { outcome: "refused", message: "not in the gateway's record" },
    )
  }
  return unsettled.length ? context.ledger.writesOf(orderId) : writes
}

/** Executed writes whose Medusa record was rolled back: money the gateway moved that Medusa does not show. */
export function orphanedWrites(writes: MoneyWrite[], kind: WriteKind): MoneyWrite[] {
  return writes.filter((write) => write.kind === kind && write.outcome === "executed" && !write.claimed_by && write.origin !== "release")
}

/**
 * Hands orphaned writes of `kind` to `claimant` while they fit in `amountMinor`, so a new
 * request for the same money takes over what the gateway already did. Returns what was taken.
 */
export async function adoptOrphans(
  context: CardWriteContext,
  writes: MoneyWrite[],
  kind: WriteKind,
  amountMinor: bigint,
  claimant: string,
): Promise<{ adoptedMinor: bigint; operationIds: string[] }> {
  let left = amountMinor
  const operationIds: string[] = []
  for (const write of orphanedWrites(writes, kind)) {
    const amount = BigInt(write.amount_minor)
    if (amount > left || !(await context.ledger.claimWrite(write.id, claimant))) continue
    left -= amount
    if (write.gateway_operation_id) operationIds.push(write.gateway_operation_id)
  }
  return { adoptedMinor: amountMinor - left, operationIds }
}

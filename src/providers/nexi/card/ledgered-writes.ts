/**
 * The card provider's money writes, each through the ledger (send-once.ts). Before a new
 * write, earlier writes of the same gateway order are settled: each capture or refund is
 * matched to its Medusa row by the id it carries (Medusa deletes the row when the provider
 * throws; a process killed mid-call leaves it standing). A write whose row stands is that
 * row's: made, it is claimed for it; never made, it is sent again under its own key. Only an
 * executed write whose row is gone is an orphan, which a new request for the same money takes
 * over instead of sending it again. See docs/ledger.md.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { PaymentRecords } from "../../../core/payment-records"
import type { GatewayClient } from "../../../gateway/gateway-client"
import {
  isOrphaned,
  type MoneyWrite,
  type NewWrite,
  type PaymentLedger,
  type WriteKind,
  type WriteOrigin,
} from "../../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../../money/amount"
import { idempotencyUuid } from "../shared/idempotency"
import { isUnsettled, sendOnce } from "../shared/send-once"
import { executedOperationFor } from "./executed-operation"
import { readCardPaymentState } from "./order-state"

export interface CardWriteContext {
  gateway: GatewayClient
  ledger: PaymentLedger
  /** What Medusa asked for, for messages: "refund the payment". */
  action: string
}

/** What settling an order's earlier writes needs besides the sender's context. */
export interface SettleContext extends CardWriteContext {
  /** Medusa's own rows, read by the id a write carries. */
  records: Pick<PaymentRecords, "holdsRowOf">
  logger?: Logger
}

type SentWrite = Pick<MoneyWrite, "kind" | "idempotency_key" | "target_ref" | "amount_minor" | "currency" | "medusa_ref">

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

/**
 * The request that makes a capture or refund Medusa asked for, under the write's own key and
 * named after Medusa's record: the same request whether it is sent first or sent again.
 */
export function requestOf(gateway: GatewayClient, write: SentWrite): () => Promise<string> {
  const target = write.target_ref ?? ""
  const body = { amount: write.amount_minor, currency: write.currency }
  if (write.kind === "capture") {
    return async () => (await gateway.capture(target, { ...body, description: `Capture ${write.medusa_ref}` }, write.idempotency_key)).operationId
  }
  if (write.kind === "refund") {
    return async () => (await gateway.refund(target, { ...body, description: `Refund ${write.medusa_ref}` }, write.idempotency_key)).operationId
  }
  throw new Error(`nexi: a ${write.kind} is not sent on behalf of a Medusa capture or refund`)
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
 * Every write of the order, settled: an outcome never learnt is read from the gateway, and a
 * capture or refund is matched to its Medusa row (see the header). A gateway or a Medusa row
 * that cannot be read refuses the new write: sending it could pay twice.
 */
export async function settledWritesOf(context: SettleContext, orderId: string): Promise<MoneyWrite[]> {
  const writes = await context.ledger.writesOf(orderId)
  let changed = false
  for (const write of writes) {
    if (isUnsettled(write)) {
      await settleLost(context, write)
      changed = true
    } else if (isOrphaned(write) && (await holdsRow(context, write))) {
      changed = (await context.ledger.claimWrite(write.id, write.medusa_ref as string)) || changed
    }
  }
  return changed ? context.ledger.writesOf(orderId) : writes
}

async function holdsRow(context: SettleContext, write: MoneyWrite): Promise<boolean> {
  try {
    return await context.records.holdsRowOf(write)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${context.action}: the Medusa record of an earlier ${writeLabel(write)} on this payment could not be read (${(error as Error).message}). Nothing was sent; try again once it can be read.`,
    )
  }
}

async function settleLost(context: SettleContext, write: MoneyWrite): Promise<void> {
  if (await holdsRow(context, write)) return sendToItsRow(context, write)
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

/**
 * A write whose Medusa row stands (the process stopped after recording both, before it heard
 * the answer) goes through the sender again under its own key: made, it is claimed for its
 * row; never made, it is sent now. A gateway that refuses it leaves Medusa showing money that
 * did not move: the write stays claimed by the row, which puts it on staff's list of ledger
 * issues, and a warning says so.
 */
async function sendToItsRow(context: SettleContext, write: MoneyWrite): Promise<void> {
  try {
    await sendCardWrite(context, write, requestOf(context.gateway, write))
  } catch (error) {
    const settled = (await context.ledger.writesOf(write.gateway_ref)).find((other) => other.id === write.id)
    if (settled?.outcome !== "refused") throw error
    await context.ledger.settleWrite(write.idempotency_key, { claimed_by: write.medusa_ref, message: (error as Error).message })
    context.logger?.warn(
      `nexi: Medusa ${write.kind} ${write.medusa_ref} (${writeLabel(write)}) stands, but the gateway refused to make it on order ${write.gateway_ref}: ${(error as Error).message}`,
    )
  }
}

/** Executed writes of `kind` whose Medusa record was rolled back: money the gateway moved that Medusa does not show. */
export function orphanedWrites(writes: MoneyWrite[], kind: WriteKind): MoneyWrite[] {
  return writes.filter((write) => write.kind === kind && isOrphaned(write))
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

export interface AuthorizationToVoid {
  orderId: string
  /** The operation that authorized the order: the AUTHORIZATION, or the CAPTURE of an IMPLICIT payment. */
  paymentOperationId: string
  amountMinor: string
  currency: string
  /** The Medusa payment (or session) the void serves: its key, stable across every retry. */
  medusaRef: string
  origin?: WriteOrigin
}

/** Voids an authorization (a refund of its full amount on the payment operation), once. */
export function voidAuthorization(context: CardWriteContext, authorization: AuthorizationToVoid): Promise<string> {
  const { orderId, paymentOperationId, amountMinor, currency, medusaRef } = authorization
  const key = idempotencyUuid(`${medusaRef}:void`)
  const write = {
    kind: "void" as const,
    ...(authorization.origin ? { origin: authorization.origin } : {}),
    idempotency_key: key,
    gateway_ref: orderId,
    target_ref: paymentOperationId,
    amount_minor: amountMinor,
    currency,
    medusa_ref: medusaRef,
  }
  return sendCardWrite(context, write, async () =>
    (await context.gateway.refund(paymentOperationId, { amount: amountMinor, currency, description: "Void of an uncaptured authorization" }, key))
      .operationId,
  )
}

/**
 * After a capture was cancelled, the gateway gives its authorization back, capturable, and the
 * shopper's money stays held (for an IMPLICIT payment the order even reads as pending). Unless
 * the order holds a live capture or nothing at all, what it still holds is voided. Returns the
 * void's operation id, or undefined when nothing was held.
 */
export async function releaseHeldAuthorization(
  context: CardWriteContext,
  held: Omit<AuthorizationToVoid, "amountMinor">,
): Promise<string | undefined> {
  const details = await context.gateway.getOrder(held.orderId)
  const state = readCardPaymentState(details)
  const heldMinor = BigInt(details.orderStatus.authorizedAmount ?? "0")
  if (state.status === "captured" || state.status === "canceled" || heldMinor <= 0n) return undefined
  return voidAuthorization(context, { ...held, amountMinor: heldMinor.toString() })
}

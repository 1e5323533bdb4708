/**
 * The card provider's money writes, each through the one sender (core/send-once.ts), found
 * again by the operation they made (core/found-by-operation.ts). Before a new write, earlier
 * writes of the same gateway order are settled and matched to their Medusa rows
 * (core/earlier-writes.ts). See docs/ledger.md.
 */
import type { Logger } from "@medusajs/framework/types"
import type { GatewayClient } from "../gateway/gateway-client"
import type { MoneyWrite, NewWrite, PaymentLedger, WriteKind, WriteOrigin } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"
import { readCardOrder } from "./card-order"
import { type MedusaRows, settledWritesOf as settleEarlier } from "./earlier-writes"
import { byOperation } from "./found-by-operation"
import { ByOrderId } from "./found-by-order-id"
import { idempotencyUuid } from "./idempotency"
import { sendOnce } from "./send-once"

export interface CardWriteContext {
  gateway: GatewayClient
  ledger: PaymentLedger
  /** What Medusa asked for, for messages: "refund the payment". */
  action: string
}

/** What settling an order's earlier writes needs besides the sender's context. */
export interface SettleContext extends CardWriteContext {
  /** Medusa's own rows, read by the id a write carries. */
  records: MedusaRows
  logger?: Logger
}

type SentWrite = Pick<
  MoneyWrite,
  "kind" | "idempotency_key" | "target_ref" | "amount_minor" | "currency" | "medusa_ref"
>

const KIND_WORDS: Partial<Record<WriteKind, string>> = {
  capture: "capture",
  refund: "refund",
  void: "void",
  cancel_capture: "cancel of a capture",
}

export function writeLabel(write: Pick<NewWrite, "kind" | "amount_minor" | "currency">): string {
  return `${KIND_WORDS[write.kind] ?? write.kind} of ${minorToMajorString(write.amount_minor, write.currency)} ${write.currency}`
}

/** The gateway takes no idempotency key on cancels (docs/contract/gateway.md). */
function recoveryOf(context: CardWriteContext, kind: WriteKind) {
  return byOperation(context.gateway, context.ledger, { keyless: kind === "cancel_capture" })
}

/**
 * The request that makes a capture or refund Medusa asked for, under the write's own key and
 * named after Medusa's record: the same request whether it is sent first or sent again.
 */
export function requestOf(gateway: GatewayClient, write: SentWrite): () => Promise<string> {
  const target = write.target_ref ?? ""
  const body = { amount: write.amount_minor, currency: write.currency }
  if (write.kind === "capture") {
    return async () =>
      (await gateway.capture(target, { ...body, description: `Capture ${write.medusa_ref}` }, write.idempotency_key))
        .operationId
  }
  if (write.kind === "refund") {
    return async () =>
      (await gateway.refund(target, { ...body, description: `Refund ${write.medusa_ref}` }, write.idempotency_key))
        .operationId
  }
  throw new Error(`nexi: a ${write.kind} is not sent on behalf of a Medusa capture or refund`)
}

/** Sends one write through the ledger; the gateway's operation id. */
export function sendCardWrite(
  context: CardWriteContext,
  write: NewWrite,
  send: () => Promise<string>,
): Promise<string> {
  return sendOnce({
    ledger: context.ledger,
    write,
    label: writeLabel(write),
    action: context.action,
    send,
    recover: recoveryOf(context, write.kind),
  })
}

/** The kinds of write a later card write settles: those Medusa asked for and may have lost the answer of. */
const SETTLED_KINDS: readonly WriteKind[] = ["capture", "refund", "void", "cancel_capture"]

/** The charges staff make at once under an attempt's own gateway order id: a MOTO payment, a saved card's MIT charge. */
const STAFF_CHARGE_KINDS: readonly WriteKind[] = ["moto", "mit_charge"]

/**
 * A staff charge whose answer was lost is found by its order id. It is never sent again from
 * here (the card data is gone; staff decide whether to charge a saved card again): only
 * settled, so the job does not take it up on every run.
 */
function staffChargeRecovery(context: CardWriteContext, write: MoneyWrite) {
  return new ByOrderId(context.gateway, write.gateway_ref, (details) => {
    const { status } = readCardOrder(details)
    return status !== "error" && status !== "canceled"
  })
}

/**
 * Every write of the order, settled, each capture or refund matched to its Medusa row
 * (core/earlier-writes.ts); a gateway or a Medusa row that cannot be read refuses the new write.
 */
export function settledWritesOf(context: SettleContext, orderId: string): Promise<MoneyWrite[]> {
  return settleEarlier(
    {
      ledger: context.ledger,
      rows: context.records,
      action: context.action,
      logger: context.logger,
      label: writeLabel,
      resendOf: async (write) => {
        if (STAFF_CHARGE_KINDS.includes(write.kind))
          return { send: () => requestOf(context.gateway, write)(), recover: staffChargeRecovery(context, write) }
        if (!SETTLED_KINDS.includes(write.kind)) return undefined
        // Only a capture or refund has a Medusa row of its own to be sent again for; the others are only found.
        return { send: () => requestOf(context.gateway, write)(), recover: recoveryOf(context, write.kind) }
      },
    },
    orderId,
  )
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
  return sendCardWrite(
    context,
    write,
    async () =>
      (
        await context.gateway.refund(
          paymentOperationId,
          { amount: amountMinor, currency, description: "Void of an uncaptured authorization" },
          key,
        )
      ).operationId,
  )
}

/**
 * After a capture was cancelled, the gateway gives its authorization back, capturable, and the
 * shopper's money stays held (an IMPLICIT payment too: src/core/card-order.ts reads it as
 * authorized again). While the order reads as authorized, what it holds is voided. Returns the
 * void's operation id, or undefined when nothing was held.
 */
export async function releaseHeldAuthorization(
  context: CardWriteContext,
  held: Omit<AuthorizationToVoid, "amountMinor">,
): Promise<string | undefined> {
  const details = await context.gateway.getOrder(held.orderId)
  const state = readCardOrder(details)
  if (state.status !== "authorized" || BigInt(state.authorizedMinor) <= 0n) return undefined
  return voidAuthorization(context, { ...held, amountMinor: state.authorizedMinor })
}

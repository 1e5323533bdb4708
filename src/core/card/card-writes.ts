/**
 * The card's money writes (capture, refund, void, cancel of a capture, the staff charges, a
 * Build session's payment), each sent through the one sender (send-once.ts), and how each is
 * found again at the gateway when its answer was lost: by the operation it made, by the order
 * id it opened, or by the Build session's state. Before a new write, the order's earlier
 * writes are settled and matched to their Medusa rows. See docs/ledger.md.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../gateway/gateway-client"
import type { Operation, OrderDetails } from "../../gateway/schemas"
import { NotFoundError, UnexpectedResponseError } from "../../http/errors"
import type { MoneyWrite, NewWrite, PaymentLedger, WriteKind, WriteOrigin } from "../../modules/nexi-ledger/types"
import { minorMoneyText } from "../../money/amount"
import { idempotencyUuid } from "../idempotency"
import { type MedusaRows, type Recovery, sendOnce, settledWritesOf as settleEarlier } from "../send-once"
import { type CardOrder, type CardOrderOperation, readCardOrder } from "./card-order"

// Found again by the operation a write made (capture, refund, void, cancel of a capture). Gateway
// operations carry neither our idempotency key nor our description, so a write is matched by
// what it must have left behind: its type, its amount, the operation it applied to, and not
// being an operation the ledger already gave to another write. Choices and limits: docs/ledger.md.

type SettledWrite = Pick<MoneyWrite, "kind" | "amount_minor" | "target_ref"> & Partial<Pick<MoneyWrite, "created_at">>

/**
 * How much older than its write an operation may look and still be the write's: the gateway's
 * clock and the store's differ (the doctor warns past a minute).
 */
const CLOCK_MARGIN_MS = 5 * 60 * 1000

/**
 * Same amount, and not older than the write: the ledger records a write before sending it, so an
 * operation from before then (a back-office refund of the same amount, weeks ago) is not the
 * write's, and taking it for the write would record money that never moved.
 */
function sameAmount({ operation, amountMinor }: CardOrderOperation, write: SettledWrite): boolean {
  if (BigInt(amountMinor) !== BigInt(write.amount_minor)) return false
  const madeAt = Date.parse(operation.operationTime ?? "")
  const recordedAt = write.created_at ? new Date(write.created_at).getTime() : Number.NaN
  return !(madeAt < recordedAt - CLOCK_MARGIN_MS)
}

/**
 * What a write of each kind leaves behind, in the read model's words (src/core/card/card-order.ts):
 * a capture or a refund is an operation that moved money of the write's amount, whatever undid
 * it since; a void or a cancel is any operation the model reads as one, by its one undo rule; a
 * cancel that did not fail, even one still under way, was made.
 */
const MADE: Record<string, (entry: CardOrderOperation, write: SettledWrite) => boolean> = {
  capture: (entry, write) => entry.moved === "capture" && sameAmount(entry, write),
  refund: (entry, write) => entry.moved === "refund" && sameAmount(entry, write),
  void: (entry) => entry.undoKind === "void" && entry.undoes !== undefined,
  cancel_capture: ({ operation, undoKind }, write) =>
    undoKind === "cancel" &&
    operation.operationResult !== "FAILED" &&
    operation.cancelledOperationId === write.target_ref,
}

/** The operation types a write of each kind can leave behind. */
const TYPES_MADE: Record<string, readonly string[]> = {
  capture: ["CAPTURE"],
  refund: ["REFUND"],
  void: ["REFUND", "VOID", "AUTHORIZATION"],
  cancel_capture: ["CANCEL"],
}

/** The gateway's record cannot tell whether the write was made: the outcome stays unknown. */
export class UndecidableRecordError extends Error {}

/**
 * The id of the operation `write` made, or undefined when the order shows none. Throws
 * UndecidableRecordError when an operation the write could have made carries a type or result
 * this plugin does not know: reading it as "not made" could let staff send the money twice.
 * @param taken operation ids the ledger already holds for other writes
 */
export function executedOperationFor(
  write: SettledWrite,
  details: OrderDetails,
  taken: ReadonlySet<string>,
): string | undefined {
  const made = MADE[write.kind]
  if (!made) return undefined
  const order = readCardOrder(details)
  const found = order.operations.find(
    (entry) => entry.operation.operationId && !taken.has(entry.operation.operationId) && made(entry, write),
  )
  if (found?.operation.operationId) return found.operation.operationId
  const unreadable = details.operations.find(
    (operation) =>
      operation.unrecognized &&
      !taken.has(operation.operationId ?? "") &&
      (operation.unrecognized.operationType !== undefined ||
        TYPES_MADE[write.kind]?.includes(operation.operationType ?? "")),
  )
  if (unreadable) {
    throw new UndecidableRecordError(
      `operation ${unreadable.operationId ?? "(no id)"} has a type or result this plugin does not know`,
    )
  }
  return write.kind === "void" ? order.voidedInPlaceId : undefined
}

/**
 * @param keyless the gateway takes no idempotency key for the write (a cancel,
 * docs/contract/gateway.md): a second sender is refused once the first one's write stands, so
 * a refusal is checked against the order too.
 */
function byOperation(gateway: GatewayClient, ledger: PaymentLedger, { keyless }: { keyless: boolean }): Recovery {
  return {
    refusalMayMeanMade: keyless,
    whenUnreadable: "wait",
    async find(write) {
      const details = await gateway.getOrder(write.gateway_ref)
      const others = (await ledger.writesOf(write.gateway_ref)).filter(
        (other) => other.idempotency_key !== write.idempotency_key,
      )
      const taken = new Set(others.map((other) => other.gateway_operation_id).filter((id): id is string => Boolean(id)))
      return executedOperationFor(write, details, taken)
    },
  }
}

// Found again by its order id: a request that opens a gateway order (a MOTO payment, a card
// verification, a saved card's charge). The order id is fixed for the attempt and the gateway
// refuses one it has seen, so a repeat cannot act twice, and what the first try did is read back
// from GET /orders/{orderId}.

/**
 * The gateway's record of the order, or undefined when it has none (404); any other failure
 * throws, so the caller tries again.
 */
export async function orderOrNone(gateway: GatewayClient, orderId: string): Promise<OrderDetails | undefined> {
  try {
    return await gateway.getOrder(orderId)
  } catch (error) {
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}

/** The id of the operation a request made; an answer without one is read back from the order instead. */
export function operationIdOf(operation: Operation): string {
  if (!operation.operationId)
    throw new UnexpectedResponseError("gateway", "The gateway answered with an operation that has no id")
  return operation.operationId
}

export class ByOrderId implements Recovery {
  // A repeated order id is refused: the refusal may be the first try's success.
  readonly refusalMayMeanMade = true
  readonly whenUnreadable = "repeat"
  /** The gateway's record of the order as last read, when it holds what the request made. */
  found?: OrderDetails

  /**
   * @param made whether the order the gateway records holds what the request was to make
   * (a declined card is an order, but nothing made)
   * @param idOf the id of what the request made, in the order: by default its first operation
   * (an order without one holds nothing the request made)
   */
  constructor(
    private readonly gateway: GatewayClient,
    private readonly orderId: string,
    private readonly made: (details: OrderDetails) => boolean = () => true,
    private readonly idOf: (details: OrderDetails) => string | undefined = (details) =>
      details.operations[0]?.operationId,
  ) {}

  async find(): Promise<string | undefined> {
    const details = await orderOrNone(this.gateway, this.orderId)
    const id = details && this.idOf(details)
    if (!details || !id || !this.made(details)) return undefined
    this.found = details
    return id
  }
}

/**
 * A Build session's payment (POST /build/finalize_payment, keyed by nothing) is found again by
 * the session's state: past READY_FOR_PAYMENT, a finalize reached the gateway. A second
 * finalize is refused (gateway-facts.md), and the refusal may hide our own lost first one.
 */
export class ByBuildState implements Recovery {
  readonly refusalMayMeanMade = true
  readonly whenUnreadable = "repeat"

  constructor(
    private readonly gateway: GatewayClient,
    private readonly buildSessionId: string,
  ) {}

  async find(): Promise<string | undefined> {
    const { state } = await this.gateway.getBuildState(this.buildSessionId)
    return state === "REDIRECTED_TO_EXTERNAL_DOMAIN" || state === "PAYMENT_COMPLETE" ? this.buildSessionId : undefined
  }
}

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

/** A kind's words where they are not its name. */
const KIND_WORDS: Partial<Record<WriteKind, string>> = { cancel_capture: "cancel of a capture" }

function writeLabel(write: Pick<NewWrite, "kind" | "amount_minor" | "currency">): string {
  return `${KIND_WORDS[write.kind] ?? write.kind} of ${minorMoneyText(write.amount_minor, write.currency)}`
}

/** The gateway takes no idempotency key on cancels (docs/contract/gateway.md). */
function recoveryOf(context: CardWriteContext, kind: WriteKind) {
  return byOperation(context.gateway, context.ledger, { keyless: kind === "cancel_capture" })
}

/**
 * The request that makes a write, under the write's own key: a capture or refund (named after
 * Medusa's record unless `description` says otherwise) is the same request whether it is sent
 * first or sent again; a void (a refund of the authorization) or a cancel of a capture (which
 * takes no key) is made only with the `description` its sender gives, so never sent again.
 */
export function requestOf(gateway: GatewayClient, write: SentWrite, description?: string): () => Promise<string> {
  const target = write.target_ref ?? ""
  const key = write.idempotency_key
  const body = { amount: write.amount_minor, currency: write.currency }
  if (write.kind === "capture") {
    return async () =>
      (await gateway.capture(target, { ...body, description: description ?? `Capture ${write.medusa_ref}` }, key))
        .operationId
  }
  if (write.kind === "refund") {
    return async () =>
      (await gateway.refund(target, { ...body, description: description ?? `Refund ${write.medusa_ref}` }, key))
        .operationId
  }
  if (write.kind === "void" && description !== undefined)
    return async () => (await gateway.refund(target, { ...body, description }, key)).operationId
  if (write.kind === "cancel_capture" && description !== undefined)
    return async () => (await gateway.cancelCapture(target, { description })).operationId
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

/** Whether a staff charge's order holds the charge: a declined card is an order, but nothing charged. */
export function isCharged(state: CardOrder): boolean {
  return state.status !== "error" && state.status !== "canceled"
}

/** A staff charge whose answer was lost is found by its order id, when the order holds the charge. */
export function staffChargeRecovery(gateway: GatewayClient, orderId: string): ByOrderId {
  return new ByOrderId(gateway, orderId, (details) => isCharged(readCardOrder(details)))
}

/**
 * Every write of the order, settled, each capture or refund matched to its Medusa row
 * (send-once.ts); a gateway or a Medusa row that cannot be read refuses the new write.
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
        // Only a capture or refund has a Medusa row of its own to be sent again for; the others are
        // only found (requestOf makes none of them without its sender's description). A staff
        // charge is never sent again from here (the card data is gone; staff decide whether to
        // charge a saved card again): only settled, so the job does not take it up on every run.
        if (write.kind === "build_finalize" && write.target_ref) {
          // Cut off (the store killed mid-call): no Medusa row holds it, so it is only found, by
          // the session's state; the shopper's own finalize may be long gone.
          const buildSessionId = write.target_ref
          const send = async () => {
            await context.gateway.finalizeBuildPayment(buildSessionId)
            return buildSessionId
          }
          return { send, recover: new ByBuildState(context.gateway, buildSessionId) }
        }
        const send = () => requestOf(context.gateway, write)()
        if (STAFF_CHARGE_KINDS.includes(write.kind))
          return { send, recover: staffChargeRecovery(context.gateway, write.gateway_ref) }
        return SETTLED_KINDS.includes(write.kind) ? { send, recover: recoveryOf(context, write.kind) } : undefined
      },
    },
    orderId,
  )
}

/**
 * A capture the gateway made that no Medusa capture holds (its answer was lost, or Medusa
 * deleted its capture afterwards), and cancelled since (in the back office; only a capture can
 * be cancelled): no money stands for Medusa to record, or for a new capture to take over. Held
 * by the cancel that undid it, it is nobody's orphan: the job does not record it, and Medusa's
 * next capture is sent. One a standing Medusa capture holds stays that capture's.
 */
export async function heldByTheirUndo(
  context: Pick<SettleContext, "ledger" | "records">,
  writes: MoneyWrite[],
  state: CardOrder,
): Promise<MoneyWrite[]> {
  const undoOf = new Map(
    state.operations.flatMap(({ operation, undoneBy }) =>
      operation.operationId && undoneBy ? [[operation.operationId, undoneBy.operationId]] : [],
    ),
  )
  let changed = false
  for (const write of writes) {
    const undo = write.gateway_operation_id ? undoOf.get(write.gateway_operation_id) : undefined
    if (write.kind !== "capture" || write.outcome !== "executed" || !undo || write.claimed_by === undo) continue
    const holder = write.claimed_by
    if (holder === null || (await context.records.rowDeleted("capture", holder)))
      changed = (await context.ledger.claimWrite(write.id, undo, holder)) || changed
  }
  return changed ? context.ledger.writesOf(state.orderId) : writes
}

/** Whether the order holds a capture made before this one's (`ownKey`): the gateway takes one per authorization. */
export function holdsEarlierCapture(writes: MoneyWrite[], ownKey: string): boolean {
  return writes.some(
    (write) => write.kind === "capture" && write.outcome === "executed" && write.idempotency_key !== ownKey,
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
  return sendCardWrite(context, write, requestOf(context.gateway, write, "Void of an uncaptured authorization"))
}

/**
 * After a capture was cancelled, the gateway gives its authorization back, capturable, and the
 * shopper's money stays held (an IMPLICIT payment too: src/core/card/card-order.ts reads it as
 * authorized again). While the order reads as authorized, what it holds is voided. Returns the
 * void's operation id, or undefined when nothing was held.
 */
export async function voidGivenBackAuthorization(
  context: CardWriteContext,
  held: Omit<AuthorizationToVoid, "amountMinor">,
): Promise<string | undefined> {
  const details = await context.gateway.getOrder(held.orderId)
  const state = readCardOrder(details)
  if (state.captureCancelUnderWay) {
    // Answered as done, the authorization the cancel gives back later would stay held: nobody looks again.
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${context.action} completely: the gateway has accepted the cancel of capture ${state.captureOperationId} on order ${held.orderId} but not finished it, so the authorization it gives back cannot be voided yet. Try again in a few minutes: what is done is not done again.`,
    )
  }
  if (state.status !== "authorized" || BigInt(state.authorizedMinor) <= 0n) return undefined
  return voidAuthorization(context, { ...held, amountMinor: state.authorizedMinor })
}

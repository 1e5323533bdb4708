/**
 * The card payment's money moves as Medusa asks for them: capture, refund, cancel. Each computes
 * its amount by totals from Medusa's rows, settles the order's earlier writes and claims the
 * orphaned ones (send-once.ts), then sends what is left once (card-writes.ts).
 */
import { MathBN, MedusaError } from "@medusajs/framework/utils"
import { InvalidRequestError } from "../../http/errors"
import { leavesRoom, minorMoneyText, minorUnitsToSend, toMinorUnits } from "../../money/amount"
import { cancelCaptureKey, idempotencyUuid } from "../idempotency"
import { type PaymentRecords, recordedOperationIds } from "../medusa-records"
import { claimOrphans, freeClaims, orphanedWrites, totalMinor } from "../send-once"
import { type CardOrder, readCardOrder } from "./card-order"
import { type CardSessionData, readCardSessionData, requireCardField } from "./card-sessions"
import {
  type CardWriteContext,
  heldByTheirUndo,
  holdsEarlierCapture,
  requestOf,
  type SettleContext,
  sendCardWrite,
  settledWritesOf,
  voidAuthorization,
  voidGivenBackAuthorization,
} from "./card-writes"

export interface CardMoneyContext extends SettleContext {
  records: PaymentRecords
}

type SessionData = Record<string, unknown> | undefined

/** The gateway takes one capture per authorization, and this one is made already. */
function capturedElsewhere(capturedMinor: string, currency: string): MedusaError {
  const captured = minorMoneyText(capturedMinor, currency)
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not capture the payment: the Nexi gateway accepts one capture per authorization and ${captured} is already captured. Refund or cancel that capture instead.`,
  )
}

/** An earlier capture whose answer was lost was made, for another amount than this one. */
function capturedByLostAnswer(capturedMinor: string, currency: string): MedusaError {
  const captured = minorMoneyText(capturedMinor, currency)
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not capture the payment: an earlier capture of ${captured}, whose answer was lost, was made at the Nexi gateway, which accepts one capture per authorization. Nothing was sent. Capture exactly ${captured}, or wait: the plugin records it in Medusa within minutes.`,
  )
}

/** The gateway holds less than this refund would take: found before sending ("not sent"), or from its refusal. */
function moreThanRefundable(
  refundMinor: bigint,
  leftMinor: bigint,
  currency: string,
  outcome: "not sent" | "refused" = "not sent",
): MedusaError {
  const amount = (minor: bigint) => minorMoneyText(minor, currency)
  const nothing = outcome === "refused" ? "The gateway refused it and nothing was refunded" : "Nothing was sent"
  return new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    `Could not refund the payment: it would refund ${amount(refundMinor)} at the Nexi gateway, which has ${amount(leftMinor > 0n ? leftMinor : 0n)} left to refund on this order (a refund made in Nexi's back office, or one still pending, takes the rest). ${nothing}; sync the payment from the gateway, then refund at most what is left.`,
  )
}

/** Captures what Medusa's capture `captureId` adds to the captured total; answers the new session data. */
export async function captureCard(
  context: CardMoneyContext,
  raw: SessionData,
  captureIdOfMedusa: string | undefined,
): Promise<Record<string, unknown>> {
  const data = readCardSessionData(raw)
  const { action, records, gateway } = context
  const captureId = requireCardField(captureIdOfMedusa, "capture id from Medusa", action)
  const orderId = requireCardField(data.order_id, "order_id", action)
  const operationId = requireCardField(data.payment_operation_id, "payment_operation_id", action)
  const currency = requireCardField(data.currency, "currency", action)
  // Money by totals; the gateway captures at most what it authorized, the session's amount.
  const totals = await records.captureTotals(captureId)
  const amountMinor = minorUnitsToSend({
    amount: totals.amount,
    before: totals.capturedBefore,
    currencyCode: currency,
    leftMinor: data.amount_minor ? BigInt(data.amount_minor) : undefined,
  }).toString()
  const key = idempotencyUuid(captureId)
  let writes = await settledWritesOf(context, orderId)
  // An earlier capture the back office cancelled since is none to take over: only the order tells.
  if (holdsEarlierCapture(writes, key))
    writes = await heldByTheirUndo(context, writes, readCardOrder(await gateway.getOrder(orderId)))
  // A capture the gateway made for an earlier, rolled-back Medusa capture is this one,
  // when the amounts agree; the gateway takes no second capture, so any other amount is refused.
  const [orphan] = orphanedWrites(writes, "capture")
  if (orphan && orphan.amount_minor !== amountMinor) throw capturedByLostAnswer(orphan.amount_minor, currency)
  const [claimed] = await claimOrphans({ ...context, rows: records }, writes, {
    kind: "capture",
    amountMinor: BigInt(amountMinor),
    claimant: captureId,
    ownKey: key,
  })
  if (claimed) return { ...raw, capture_operation_id: claimed.gateway_operation_id, status: "captured" }
  const write = {
    kind: "capture" as const,
    idempotency_key: key,
    gateway_ref: orderId,
    target_ref: operationId,
    amount_minor: amountMinor,
    currency,
    medusa_ref: captureId,
  }
  try {
    const captureOperationId = await sendCardWrite(context, write, requestOf(gateway, write))
    return { ...raw, capture_operation_id: captureOperationId, status: "captured" }
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error
    return captureAlreadyDone(context, data, MathBN.add(totals.capturedBefore, totals.amount).toString(), error)
  }
}

/**
 * The gateway refused the capture. It is a success when the gateway already holds what Medusa
 * will have captured, `medusaTotal` (IMPLICIT capture, a capture in the gateway's back office);
 * otherwise the refusal stands, with its reason.
 */
async function captureAlreadyDone(
  context: CardMoneyContext,
  data: Partial<CardSessionData>,
  medusaTotal: string,
  refusal: InvalidRequestError,
): Promise<Record<string, unknown>> {
  const orderId = requireCardField(data.order_id, "order_id", "capture the payment")
  const currency = requireCardField(data.currency, "currency", "capture the payment")
  const state = readCardOrder(await context.gateway.getOrder(orderId))
  const medusaTotalMinor = toMinorUnits(medusaTotal, currency)
  // Equal, not "at least": Medusa must never show another captured amount than the gateway.
  if (state.captureOperationId && BigInt(state.capturedMinor) === BigInt(medusaTotalMinor)) {
    return { ...data, capture_operation_id: state.captureOperationId, status: "captured" }
  }
  if (state.captureOperationId) throw capturedElsewhere(state.capturedMinor, currency)
  throw refusal
}

/** Refunds what Medusa's refund `refundId` adds to the refunded total; answers the new session data. */
export async function refundCard(
  context: CardMoneyContext,
  raw: SessionData,
  refundIdOfMedusa: string | undefined,
  amount: unknown,
): Promise<SessionData> {
  const data = readCardSessionData(raw)
  const { action, records, gateway } = context
  const refundId = requireCardField(refundIdOfMedusa, "refund id from Medusa", action)
  const orderId = requireCardField(data.order_id, "order_id", action)
  const currency = requireCardField(data.currency, "currency", action)
  const recorded = recordedOperationIds(await records.refundMetadata(refundId))
  if (recorded.length) {
    // Recorded from the gateway (back office, a settled lost answer, a cancelled capture):
    // the money moved already; the writes it accounts for are no longer anyone's to take.
    await claimRecordedRefunds(context, orderId, recorded, refundId)
    return raw
  }
  const writes = await settledWritesOf(context, orderId)
  const totals = await records.refundTotals(refundId)
  // Money by totals, capped at what the gateway has left to refund. While Medusa's own
  // captures leave room after this refund, the gateway (when it agrees with Medusa) has room
  // too, and judges the refund itself: reading it first would cost every refund a round trip.
  // The last refund, where rounding may reach past what the gateway holds, reads it. A gateway
  // that cannot be read now still judges the refund: the read must not stop one it would make.
  const step = { amount: amount as never, before: totals.refundedBefore, currencyCode: currency }
  const mayReachTheEnd = !data.capture_operation_id || !leavesRoom(step, totals.captured)
  const state = mayReachTheEnd ? await gateway.getOrder(orderId).then(readCardOrder, () => undefined) : undefined
  const leftMinor = state && BigInt(state.refundableMinor)
  const amountMinor = minorUnitsToSend({ ...step, leftMinor })
  const key = idempotencyUuid(refundId)
  const claimed = await claimOrphans({ ...context, rows: records }, writes, {
    kind: "refund",
    amountMinor,
    claimant: refundId,
    ownKey: key,
  })
  const remainingMinor = amountMinor - totalMinor(claimed)
  if (remainingMinor === 0n) return raw
  // This refund's own write, if an earlier call of it sent it, is in what the gateway no longer has.
  const own = writes.find((write) => write.idempotency_key === key && write.outcome !== "refused")
  let target: string
  try {
    if (leftMinor !== undefined && remainingMinor > leftMinor + BigInt(own?.amount_minor ?? "0")) {
      throw moreThanRefundable(remainingMinor, leftMinor, currency)
    }
    target = requireCardField(data.capture_operation_id ?? state?.captureOperationId, "capture_operation_id", action)
  } catch (error) {
    // Medusa deletes this refund's row when it fails: what it took over must be free for the next.
    await freeClaims(context.ledger, claimed, action)
    throw error
  }
  const write = {
    kind: "refund" as const,
    idempotency_key: key,
    gateway_ref: orderId,
    target_ref: target,
    amount_minor: remainingMinor.toString(),
    currency,
    medusa_ref: refundId,
  }
  try {
    await sendCardWrite(context, write, requestOf(gateway, write))
  } catch (error) {
    await freeClaims(context.ledger, claimed, action)
    throw state ? error : await refusalExplained(context, error, orderId, remainingMinor, currency)
  }
  return { ...raw, capture_operation_id: target }
}

/**
 * A refund sent without reading the gateway first, and refused: when the gateway has less left
 * than it was asked (a back-office refund Medusa has not recorded yet), the error says so with
 * both amounts; any other refusal stands as it came.
 */
async function refusalExplained(
  context: CardMoneyContext,
  error: unknown,
  orderId: string,
  refundMinor: bigint,
  currency: string,
): Promise<unknown> {
  if (!(error instanceof InvalidRequestError)) return error
  const state = await context.gateway.getOrder(orderId).then(readCardOrder, () => undefined)
  if (!state || refundMinor <= BigInt(state.refundableMinor)) return error
  return moreThanRefundable(refundMinor, BigInt(state.refundableMinor), currency, "refused")
}

/**
 * The refund writes of the operations a refund recorded from the gateway names become its own.
 * One another Medusa refund still holds (staff's refund took it over while the sync was recording
 * it) refuses this one: recorded twice, Medusa would count the money twice. One whose holder is
 * gone (Medusa deleted it after the gateway made it) is this refund's.
 */
async function claimRecordedRefunds(
  context: SettleContext,
  orderId: string,
  operationIds: string[],
  refundId: string,
): Promise<void> {
  const recorded = new Set(operationIds)
  for (const write of await context.ledger.writesOf(orderId)) {
    if (write.kind !== "refund" || !write.gateway_operation_id || !recorded.has(write.gateway_operation_id)) continue
    if (write.claimed_by === refundId) continue
    const holderGone = !write.claimed_by || (await context.records.rowDeleted("refund", write.claimed_by))
    if (!holderGone || !(await context.ledger.claimWrite(write.id, refundId, write.claimed_by))) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not ${context.action}: gateway refund ${write.gateway_operation_id} is already recorded in Medusa as refund ${write.claimed_by ?? "(another)"}; recording it again would count it twice. Nothing was recorded.`,
      )
    }
  }
}

/**
 * Order cancel, or Medusa undoing a payment it could not record: it ends with nothing
 * authorized or charged for the shopper. An uncaptured authorization is voided (a refund on
 * the AUTHORIZATION operation); a capture (one Medusa may not know of: made in the back
 * office, or whose answer Medusa lost) is cancelled, and the authorization the cancel gives
 * back is voided; or the capture is refunded when the gateway no longer allows the cancel
 * (it does so on the day of the capture only).
 */
export async function cancelCard(context: SettleContext, raw: SessionData, key: string): Promise<SessionData> {
  const data = readCardSessionData(raw)
  if (!data.order_id) return raw
  const currency = requireCardField(data.currency, "currency", context.action)
  await settledWritesOf(context, data.order_id)
  const state = readCardOrder(await context.gateway.getOrder(data.order_id))
  if (state.status === "captured" && state.captureOperationId && state.paymentOperationId) {
    const paymentOperationId = state.paymentOperationId
    await undoCapture(context, data.order_id, state, currency, key)
    await voidGivenBackAuthorization(context, {
      orderId: data.order_id,
      paymentOperationId,
      currency,
      medusaRef: key,
    })
  } else if (state.status === "authorized" && state.paymentOperationId) {
    const authorization = {
      orderId: data.order_id,
      paymentOperationId: state.paymentOperationId,
      amountMinor: state.authorizedMinor,
    }
    await voidAuthorization(context, { ...authorization, currency, medusaRef: key })
  }
  return { ...raw, status: "canceled" }
}

async function undoCapture(
  context: CardWriteContext,
  orderId: string,
  state: CardOrder,
  currency: string,
  key: string,
): Promise<void> {
  const captureOperationId = state.captureOperationId as string
  const cancel = {
    kind: "cancel_capture" as const,
    idempotency_key: cancelCaptureKey(captureOperationId),
    gateway_ref: orderId,
    target_ref: captureOperationId,
    amount_minor: state.capturedMinor,
    currency,
    medusa_ref: key,
  }
  try {
    await sendCardWrite(context, cancel, requestOf(context.gateway, cancel, "Payment cancelled in Medusa"))
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error
    // Refunds still PENDING will take their money too: only the rest is refunded.
    const remaining = BigInt(state.refundableMinor)
    if (remaining <= 0n) return
    const refund = {
      ...cancel,
      kind: "refund" as const,
      idempotency_key: idempotencyUuid(`${key}:cancel-refund`),
      amount_minor: remaining.toString(),
    }
    const description = "Refund of a capture that can no longer be cancelled"
    await sendCardWrite(context, refund, requestOf(context.gateway, refund, description))
  }
}

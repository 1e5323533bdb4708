/**
 * What staff do to one Nexi payment that Medusa's own capture and refund buttons do not: sync it
 * (POST /admin/nexi/payments/:id/sync) and cancel one of its captures
 * (POST /admin/nexi/payments/:id/cancel-capture). Each answers the payment as its service now
 * holds it, and what was done in words staff can act on (NexiPaymentActionResponse).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type BigNumber from "bignumber.js"
import { type CardOrder, type CardOrderCapture, readCardOrder } from "../core/card/card-order"
import { requestOf, sendCardWrite, voidGivenBackAuthorization } from "../core/card/card-writes"
import { recordCancelledCapture } from "../core/gateway-money-records"
import { cancelCaptureKey } from "../core/idempotency"
import { toMedusaError } from "../core/medusa-errors"
import { recordedOperationIds } from "../core/medusa-records"
import { withPaymentLock } from "../core/payment-lock"
import { gatewayClientFor, isNexiCardProviderId, ledgerOf } from "../core/store-entries"
import type { GatewayClient } from "../gateway/gateway-client"
import { fromMinorUnits, minorMoneyText, moneyText, totalMinorUnits } from "../money/amount"
import { reconcileSession, reconcileTransaction } from "../reconciliation/reconcile-pending-sessions"
import type { NexiPaymentActionResponse } from "./contract"
import {
  cardPaymentView,
  gatewayOrderOf,
  loadNexiPayment,
  medusaTotals,
  type NexiPaymentRecord,
  readPaymentView,
} from "./payment-views"

/*
 * Sync: re-reads the payment from its service now instead of waiting for a notification or the
 * reconciliation job, and answers what changed. It is the one sync the job and the
 * notifications use (src/core/card/card-sync.ts, src/core/mobile/mobile-sync.ts), so a Sync,
 * the job and a notification record each operation once whichever comes first:
 * - a card payment's gateway order is read once; captures and refunds made in the gateway's back
 *   office are recorded under the payment's lock;
 * - a mobile payment's transaction has its writes settled (a refund whose answer was lost, one the
 *   scheme still holds) and a refund whose workflow died gets the rest of Medusa's bookkeeping.
 *   Its service reports no refunds made elsewhere, so nothing else is recorded.
 */
export async function syncPayment(container: MedusaContainer, paymentId: string): Promise<NexiPaymentActionResponse> {
  const before = await loadNexiPayment(container, paymentId)
  const isCard = isNexiCardProviderId(before.provider_id)
  const transactionId = before.data?.transaction_id
  if (isCard ? !before.payment_session_id : transactionId === undefined) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Payment ${paymentId} has nothing to read again.`)
  }
  try {
    if (isCard)
      await reconcileSession(container, { id: before.payment_session_id as string, provider_id: before.provider_id })
    else await reconcileTransaction(container, before.provider_id, String(transactionId))
  } catch (error) {
    throw toMedusaError(error, `sync payment ${paymentId}`)
  }
  const after = await loadNexiPayment(container, paymentId)
  const payment = await readPaymentView(container, after)
  const currency = before.currency_code.toUpperCase()
  const gateway =
    payment.kind === "card" ? { captured: payment.captured.amount, refunded: payment.refunded.amount } : undefined
  const facts = { currency, before: medusaTotals(before), after: medusaTotals(after), gateway }
  const message =
    payment.kind === "card"
      ? syncMessage(facts)
      : `Read transaction ${payment.transaction_id} from the mobile payment service: ${payment.state ?? "no state yet"}. Its refunds and reversals were settled as the job settles them; the service reports none made elsewhere.`
  return { payment, message }
}

/*
 * What a sync did, in words staff can act on, from Medusa's totals before and after and what
 * the gateway reports. Pure. Medusa records a cancelled capture as a refund, so Medusa and the
 * gateway are compared on what is still held: captured minus refunded.
 */
export interface HeldTotals {
  captured: BigNumber
  refunded: BigNumber
}

export interface SyncFacts {
  currency: string
  before: HeldTotals
  after: HeldTotals
  /** The gateway's view, major units; absent for a payment without one (mobile). */
  gateway?: { captured: string; refunded: string }
}

export function syncMessage({ currency, before, after, gateway }: SyncFacts): string {
  const changes: string[] = []
  const newRefunds = after.refunded.minus(before.refunded)
  const newCaptures = after.captured.minus(before.captured)
  if (newCaptures.isGreaterThan(0)) changes.push(`Recorded a capture of ${moneyText(newCaptures, currency)}.`)
  if (newRefunds.isGreaterThan(0)) {
    changes.push(`Recorded a refund of ${moneyText(newRefunds, currency)} made at the gateway outside Medusa.`)
  }
  if (!changes.length) changes.push("Nothing to record: Medusa already has every refund the gateway reports.")
  if (gateway) {
    // As the gateway holds Medusa's totals: each rounded to the currency's minor unit. Medusa's
    // may carry more decimals (10948.8 JPY captured, 10949 refunded: both 10949 at the gateway).
    const held = (captured: BigNumber.Value, refunded: BigNumber.Value) =>
      totalMinorUnits(String(captured), currency) - totalMinorUnits(String(refunded), currency)
    const gatewayHeld = held(gateway.captured, gateway.refunded)
    const medusaHeld = held(after.captured.toFixed(), after.refunded.toFixed())
    if (gatewayHeld !== medusaHeld) {
      changes.push(
        `The gateway holds ${minorMoneyText(gatewayHeld, currency.toUpperCase())} captured and not refunded, Medusa ${minorMoneyText(medusaHeld, currency.toUpperCase())}.`,
      )
    }
  }
  return changes.join(" ")
}

/*
 * Cancel capture: rolls a capture back at the gateway (POST /operations/{id}/cancels, the reason
 * as description), then records the cancelled amount in Medusa as a refund, so the order's
 * totals agree with the gateway's. The cancel of a full capture gives the authorization back,
 * capturable: it is voided too, unless staff keep it to capture again. The refund's metadata
 * names the gateway's CANCEL operation: the card provider then does not send it to the gateway
 * again (`refundCard` in core/card/card-money.ts).
 *
 * The gateway defines no idempotency key for cancels. What keeps a repeated request from
 * doing anything twice: the capture is checked first (a capture already cancelled is not
 * cancelled again, and its refund is recorded only if Medusa lacks it), and the cancel goes
 * through the ledger, which settles an answer lost in transit from the gateway's record. A
 * repeat also finishes what an earlier request left undone: an authorization the cancel of a
 * full capture gave back and that is still held is voided, once, under the payment's void key.
 */
export interface CancelCaptureInput {
  paymentId: string
  operationId: string
  reason: string
  /** The member of staff, recorded as the refund's creator. */
  actorId?: string
  /**
   * Keep the authorization the cancel of a full capture gives back, to capture it again. By
   * default it is voided: a cancelled capture must not leave the shopper's money held. (After
   * a partial capture the rest stays capturable either way.)
   */
  keepAuthorization?: boolean
}

export async function cancelCapture(
  container: MedusaContainer,
  input: CancelCaptureInput,
): Promise<NexiPaymentActionResponse> {
  return withPaymentLock(container, input.paymentId, () => cancelLocked(container, input))
}

async function cancelLocked(container: MedusaContainer, input: CancelCaptureInput): Promise<NexiPaymentActionResponse> {
  const payment = await loadNexiPayment(container, input.paymentId)
  if (!isNexiCardProviderId(payment.provider_id)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `id: payment ${payment.id} is a mobile payment; only card captures can be cancelled`,
    )
  }
  const gateway = gatewayClientFor(container, payment.provider_id)
  const details = await gatewayOrderOf(container, payment)
  const order = readCardOrder(details)
  const { capture, cancelledBy } = findCaptureToCancel(order, input.operationId)
  // A cancelled partial capture leaves the rest to capture, as staff expect; a full one leaves nothing to do with it.
  const full = BigInt(capture.amountMinor) >= BigInt(order.authorizedMinor)
  const voidsGivenBack = full && !input.keepAuthorization
  const alreadyRecorded =
    cancelledBy !== undefined &&
    payment.refunds.some((refund) => recordedOperationIds(refund.metadata).includes(String(cancelledBy.operationId)))
  // When the void failed after the cancel and its refund were recorded, staff sending the
  // request again is what voids the authorization still held (the job settles a void's outcome,
  // it never sends one again): refused only when nothing is left to do.
  const voidLeft = voidsGivenBack && order.status === "authorized" && BigInt(order.authorizedMinor) > 0n
  if (alreadyRecorded && !voidLeft) throw alreadyCancelled(input.operationId, cancelledBy)
  const currency = details.orderStatus.order.currency
  const cancelling = { container, gateway, payment, order, currency: currency ?? payment.currency_code.toUpperCase() }
  const cancelOperationId = cancelledBy?.operationId ?? (await sendCancel(cancelling, capture, input))
  const recorded = alreadyRecorded
    ? undefined
    : await recordCancel(container, payment, capture, cancelOperationId, input)
  const voided = voidsGivenBack ? await voidGivenBack(cancelling, input) : undefined
  // The void's own read found nothing held after all: this request did nothing.
  if (alreadyRecorded && !voided) throw alreadyCancelled(input.operationId, cancelledBy)
  const after = await gateway.getOrder(order.orderId).catch((error) => {
    throw toMedusaError(error, "read the payment after the cancel")
  })
  const cancelled = moneyText(fromMinorUnits(capture.amountMinor, currency), currency)
  const atGateway = cancelledBy
    ? `Capture ${input.operationId} (${cancelled}) was already cancelled at the gateway (operation ${cancelOperationId})`
    : `Cancelled capture ${input.operationId} (${cancelled}) at the gateway (operation ${cancelOperationId})`
  const inMedusa = alreadyRecorded
    ? "its refund was already recorded in Medusa."
    : recorded
      ? `recorded a refund of ${moneyText(recorded, currency)} in Medusa.`
      : "Medusa had nothing captured left to refund, so no refund was recorded."
  const authorization = voided
    ? ` Voided the authorization the cancel gave back (operation ${voided}).`
    : full && input.keepAuthorization
      ? " The authorization stays held, to capture again."
      : ""
  return {
    payment: cardPaymentView({ payment_id: payment.id, provider_id: payment.provider_id }, after),
    message: `${atGateway}; ${inMedusa}${authorization}`,
  }
}

function alreadyCancelled(operationId: string, cancelledBy: { operationId: string } | undefined): MedusaError {
  return new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `operation_id: capture ${operationId} is already cancelled (gateway operation ${cancelledBy?.operationId}) and recorded in Medusa`,
  )
}

/** The payment whose capture is cancelled, and its gateway order as read before the cancel. */
interface Cancelling {
  container: MedusaContainer
  gateway: GatewayClient
  payment: NexiPaymentRecord
  order: CardOrder
  /** What the cancel and the void are recorded in: the gateway order's currency, or the payment's. */
  currency: string
}

/**
 * The new CANCEL operation's id, sent once through the ledger: a lost answer is settled from
 * the gateway's record of the order; a refusal carries the gateway's own words.
 */
async function sendCancel(
  { container, gateway, payment, order, currency }: Cancelling,
  capture: CardOrderCapture,
  input: CancelCaptureInput,
): Promise<string> {
  const action = `cancel capture ${input.operationId}`
  const context = { gateway, ledger: ledgerOf(container), action }
  const write = {
    kind: "cancel_capture" as const,
    origin: "staff" as const,
    idempotency_key: cancelCaptureKey(input.operationId),
    gateway_ref: order.orderId,
    target_ref: input.operationId,
    amount_minor: capture.amountMinor,
    currency,
    medusa_ref: payment.id,
  }
  try {
    return await sendCardWrite(context, write, requestOf(gateway, write, input.reason))
  } catch (error) {
    throw toMedusaError(error, action)
  }
}

/**
 * Voids the authorization the cancel gave back, through the ledger under the payment's own
 * void key (the one an order cancel uses too), so it is voided once whoever asks.
 */
async function voidGivenBack(
  { container, gateway, payment, order, currency }: Cancelling,
  input: CancelCaptureInput,
): Promise<string | undefined> {
  const action = `void the authorization given back by the cancel of capture ${input.operationId}`
  const { orderId, paymentOperationId } = order
  if (!paymentOperationId) return undefined
  const context = { gateway, ledger: ledgerOf(container), action }
  try {
    const held = { orderId, paymentOperationId, currency, medusaRef: payment.id, origin: "staff" as const }
    return await voidGivenBackAuthorization(context, held)
  } catch (error) {
    // The cancel and its refund stand: the words must not read as if nothing was done.
    const { type, message } = toMedusaError(error, action)
    throw new MedusaError(
      type,
      `Capture ${input.operationId} is cancelled at the gateway and recorded in Medusa, but the authorization it gave back is still held. ${message} Sending the same request again voids it.`,
    )
  }
}

/** Records the cancel in Medusa as the sync records one (gateway-money-records.ts), with staff's reason and name. */
async function recordCancel(
  container: MedusaContainer,
  payment: NexiPaymentRecord,
  capture: CardOrderCapture,
  cancelOperationId: string,
  input: CancelCaptureInput,
): Promise<BigNumber | undefined> {
  const cancelled = { capture: input.operationId, cancel: cancelOperationId, amountMinor: capture.amountMinor }
  const by = { note: `Nexi capture ${input.operationId} cancelled: ${input.reason}`, createdBy: input.actorId }
  try {
    return await recordCancelledCapture(container, payment.id, cancelled, payment.currency_code.toUpperCase(), by)
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The gateway cancelled capture ${input.operationId} (operation ${cancelOperationId}) but Medusa could not record the refund: ${(error as Error).message}. Send the same request again to record it.`,
    )
  }
}

/*
 * Which capture a "cancel capture" request is about, checked against the gateway's record of
 * the payment's order before anything is sent: only a capture the read model counts (an
 * executed CAPTURE of that order) can be cancelled. Pure; a refusal is a 400 naming
 * operation_id and saying why.
 */
export interface CaptureToCancel {
  capture: CardOrderCapture
  /** The CANCEL that already rolled this capture back, if the gateway has one (the read model's undo rule). */
  cancelledBy?: { operationId: string }
}

function refuse(message: string): never {
  throw new MedusaError(MedusaError.Types.INVALID_DATA, `operation_id: ${message}`)
}

export function findCaptureToCancel(order: CardOrder, operationId: string): CaptureToCancel {
  const capture = order.captures.find((entry) => entry.operationId === operationId)
  if (capture) {
    const undoneBy = order.operations.find(({ operation }) => operation.operationId === operationId)?.undoneBy
    return undoneBy?.kind === "cancel" ? { capture, cancelledBy: { operationId: undoneBy.operationId } } : { capture }
  }
  const operation = order.operations.find((entry) => entry.operation.operationId === operationId)?.operation
  if (!operation) refuse(`${operationId} is not an operation of this payment's gateway order ${order.orderId}`)
  if (operation.operationType !== "CAPTURE") {
    refuse(
      `${operationId} is not a capture (its type is ${operation.operationType ?? "unknown"}); only a capture can be cancelled`,
    )
  }
  return refuse(
    `capture ${operationId} has result ${operation.operationResult ?? "unknown"}; only an executed capture can be cancelled`,
  )
}

/**
 * What staff collect from an order (a MOTO payment, a saved-card charge, a payment link),
 * decided from the Medusa order alone (pure; the amount never comes from the request):
 *
 * - A draft order: its current total. Medusa's own createOrUpdateOrderPaymentCollection
 *   workflow creates the draft's payment collection, or resizes it to the total when the draft
 *   was edited since an earlier attempt. Refused when the draft is already paid.
 * - An order with an unpaid payment collection (not_paid or awaiting: an order placed without
 *   payment, or the difference an order edit left to pay): that collection, for the amount
 *   Medusa says is owed on it.
 * - An order with no collection at all (placed through the API without one): Medusa's
 *   workflow creates one for what is still owed (the order summary's pending difference).
 * - An order already paid (a collection authorized, captured or completed, and none unpaid),
 *   or with nothing owed: refused, so a customer is never charged twice.
 * - A canceled or archived order: refused.
 *
 * An attempt whose session is still waiting (pending_authorization, same amount, same channel)
 * is resumed rather than replaced: it holds the gateway order id of that attempt, and the
 * gateway knows whether it was charged even when its answer never reached us.
 */
import { MedusaError } from "@medusajs/framework/utils"
import BigNumber from "bignumber.js"
import { type StaffChannel, staffChannelOfSession } from "../core/staff-sessions"
import { type AmountInput, minorMoneyText, minorToMajorString, toDecimal, toMinorUnits } from "../money/amount"
import { currencyExponent } from "../money/currencies"
import type { NexiMoney } from "./contract"

export type OrderTargetField = "draft_order_id" | "order_id"

export interface CollectionSessionRow {
  id: string
  provider_id: string
  status: string
  data: Record<string, unknown> | null
}

export interface CollectionRow {
  id: string
  status: string
  amount: AmountInput
  currency_code: string
  payment_sessions?: Array<CollectionSessionRow | null>
}

export interface OwingOrderRow {
  id: string
  /** The number staff know the order by ("#12"); refusals name the order by it. */
  display_id?: number | null
  status: string
  is_draft_order: boolean
  currency_code: string
  /** The order summary's pending_difference: what is still owed. */
  pending_difference: AmountInput | null | undefined
  payment_collections: CollectionRow[]
}

/** What the plan reads of an order, and of each of its collections, as Query names the fields. */
export const PLAN_ORDER_FIELDS = ["id", "display_id", "status", "is_draft_order", "currency_code", "summary.*"]
export const PLAN_COLLECTION_FIELDS = ["id", "status", "amount", "raw_amount", "currency_code"]

/** An order as Query answers those fields (and maybe more), as the plan reads it: what it owes is the summary's exact amount. */
export function owingOrderRow<T extends OwingOrderRow>(row: Record<string, unknown>): T {
  const summary = row.summary as { raw_pending_difference?: unknown; pending_difference?: unknown } | undefined
  return {
    ...row,
    pending_difference: summary?.raw_pending_difference ?? summary?.pending_difference,
    payment_collections: ((row.payment_collections as CollectionRow[] | undefined) ?? []).filter(Boolean),
  } as T
}

export type CollectionPlan =
  | { collection: "prepare"; isDraft: boolean }
  | { collection: "use"; isDraft: false; collectionId: string }

const UNPAID = new Set(["not_paid", "awaiting"])
const PAID = new Set(["authorized", "partially_authorized", "partially_captured", "completed"])
const CLOSED_ORDER = new Set(["canceled", "archived"])

function refuse(type: string, message: string): never {
  throw new MedusaError(type, message)
}

/** The order as staff know it, "Order #12" or "Draft order #12" (its id only when it has no number). */
export function orderName(order: Pick<OwingOrderRow, "id" | "display_id" | "is_draft_order">): string {
  const noun = order.is_draft_order ? "Draft order" : "Order"
  return order.display_id ? `${noun} #${order.display_id}` : `${noun} ${order.id}`
}

/** `noun` names the payment in refusals ("a MOTO payment would charge the customer twice"). */
export function planCollection(order: OwingOrderRow, field: OrderTargetField, noun: string): CollectionPlan {
  const isDraft = order.is_draft_order
  if (field === "draft_order_id" && !isDraft) {
    refuse(
      MedusaError.Types.INVALID_DATA,
      `draft_order_id: ${order.id} is an order, not a draft order; send it as order_id`,
    )
  }
  if (field === "order_id" && isDraft) {
    refuse(MedusaError.Types.INVALID_DATA, `order_id: ${order.id} is a draft order; send it as draft_order_id`)
  }
  if (CLOSED_ORDER.has(order.status)) {
    refuse(MedusaError.Types.NOT_ALLOWED, `${orderName(order)} is ${order.status}: there is nothing to pay.`)
  }
  const open = order.payment_collections.filter((collection) => collection.currency_code === order.currency_code)
  const unpaid = open.find((collection) => UNPAID.has(collection.status))
  const paid = open.find((collection) => PAID.has(collection.status))
  if (paid && (isDraft || !unpaid)) {
    refuse(
      MedusaError.Types.NOT_ALLOWED,
      `${orderName(order)} is already paid (its payment is ${paid.status.replaceAll("_", " ")}); a ${noun} would charge the customer twice. Capture or refund the existing payment instead.`,
    )
  }
  if (unpaid && !isDraft) return { collection: "use", isDraft: false, collectionId: unpaid.id }
  const owed =
    order.pending_difference === null || order.pending_difference === undefined
      ? new BigNumber(0)
      : toDecimal(order.pending_difference)
  if (owed.isLessThanOrEqualTo(0)) {
    refuse(
      MedusaError.Types.NOT_ALLOWED,
      `${orderName(order)} has nothing left to pay (its pending difference is ${owed.toFixed()}).`,
    )
  }
  return { collection: "prepare", isDraft }
}

/**
 * What the collection the plan names owes, read from the order alone: the unpaid collection's
 * amount, or the pending difference Medusa's workflow would create or set the collection to.
 */
export function owedByPlan(order: OwingOrderRow, plan: CollectionPlan): AmountInput {
  if (plan.collection === "prepare") return order.pending_difference ?? 0
  const unpaid = order.payment_collections.find((collection) => collection.id === plan.collectionId) as
    | (CollectionRow & { raw_amount?: AmountInput })
    | undefined
  if (!unpaid)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Payment collection ${plan.collectionId} of order ${order.id} was not read with the order.`,
    )
  return unpaid.raw_amount ?? unpaid.amount
}

/**
 * What staff may collect from an order now (by a payment link, a saved card, MOTO), or null with
 * the plan's refusal saying why: the admin offers those actions only when something is owed.
 */
export function owedNow(order: OwingOrderRow, noun: string): { owed: NexiMoney | null; refusal: string | null } {
  try {
    const plan = planCollection(order, order.is_draft_order ? "draft_order_id" : "order_id", noun)
    const currency = order.currency_code.toUpperCase()
    const minor = toMinorUnits(owedByPlan(order, plan), currency)
    return { owed: { amount: minorToMajorString(minor, currency), currency }, refusal: null }
  } catch (error) {
    if (error instanceof MedusaError) return { owed: null, refusal: error.message }
    throw error
  }
}

/** The session of an earlier attempt of this channel on this collection that may still be charged, if any. */
export function resumableSession(
  collection: CollectionRow,
  providerId: string,
  amountMinor: string,
  channel: StaffChannel,
): CollectionSessionRow | undefined {
  return (collection.payment_sessions ?? []).find(
    (session): session is CollectionSessionRow =>
      !!session &&
      session.provider_id === providerId &&
      session.status === "pending_authorization" &&
      staffChannelOfSession(session.data) === channel &&
      session.data?.amount_minor === amountMinor,
  )
}

/**
 * The amount staff typed (major units, "12.50"), checked against what the collection owes: the
 * minor units to collect when less than that, undefined when it is all of it. A draft order is
 * paid in full; more than is owed, or more decimals than the currency has, is refused.
 */
export function smallerAmountMinor(
  typed: string,
  owed: AmountInput,
  currency: string,
  isDraft: boolean,
): string | undefined {
  const refuseAmount = (detail: string): never => refuse(MedusaError.Types.INVALID_DATA, `amount: ${detail}`)
  if (isDraft) refuseAmount("a draft order is paid in full; leave amount out")
  if (!/^\d+(\.\d+)?$/.test(typed)) refuseAmount(`must be a positive decimal number like 12.50 (got "${typed}")`)
  const major = new BigNumber(typed)
  const exponent = currencyExponent(currency)
  if (!major.shiftedBy(exponent).isInteger()) refuseAmount(`${currency} has ${exponent} decimals; ${typed} has more`)
  if (major.isLessThanOrEqualTo(0)) refuseAmount("must be more than 0")
  const owedMinor = toMinorUnits(owed, currency)
  const minor = major.shiftedBy(exponent).toFixed(0)
  if (BigInt(minor) > BigInt(owedMinor)) {
    refuseAmount(`${typed} ${currency} is more than the order owes (${minorMoneyText(owedMinor, currency)})`)
  }
  return minor === owedMinor ? undefined : minor
}

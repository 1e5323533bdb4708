/**
 * POST /admin/nexi/payments/:id/sync: re-reads the payment from its service now instead of
 * waiting for a notification or the reconciliation job, and answers what changed.
 *
 * Card payments go through the one sync the job and the notifications use (reconcileSession,
 * src/core/card/card-sync.ts): it reads the gateway order once and records captures and refunds made
 * in the gateway's back office under the payment's lock, so a Sync, the job and the
 * notification record each operation once whichever comes first.
 * Mobile payments are only read: their service reports no refunds made elsewhere, and running
 * the payment action again on a finalized transaction would ask Medusa for a second capture.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import BigNumber from "bignumber.js"
import { toMedusaError } from "../core/medusa-errors"
import { isNexiCardProviderId } from "../core/store-entries"
import { moneyText } from "../money/amount"
import { reconcileSession } from "../reconciliation/reconcile-pending-sessions"
import type { NexiPaymentActionResponse } from "./contract"
import { loadNexiPayment, medusaTotals, readPaymentView } from "./payment-views"

export async function syncPayment(container: MedusaContainer, paymentId: string): Promise<NexiPaymentActionResponse> {
  const before = await loadNexiPayment(container, paymentId)
  const isCard = isNexiCardProviderId(before.provider_id)
  if (isCard) {
    if (!before.payment_session_id) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Payment ${paymentId} has no payment session to read again.`,
      )
    }
    try {
      await reconcileSession(container, { id: before.payment_session_id, provider_id: before.provider_id })
    } catch (error) {
      throw toMedusaError(error, `sync payment ${paymentId}`)
    }
  }
  const after = isCard ? await loadNexiPayment(container, paymentId) : before
  const payment = await readPaymentView(container, after)
  const currency = before.currency_code.toUpperCase()
  const gateway =
    payment.kind === "card" ? { captured: payment.captured.amount, refunded: payment.refunded.amount } : undefined
  const facts = { currency, before: medusaTotals(before), after: medusaTotals(after), gateway }
  const message =
    payment.kind === "card"
      ? syncMessage(facts)
      : `Read transaction ${payment.transaction_id} from the mobile payment service: ${payment.state ?? "no state yet"}. Mobile payments record nothing back into Medusa from a sync.`
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
    const gatewayHeld = new BigNumber(gateway.captured).minus(gateway.refunded)
    const medusaHeld = after.captured.minus(after.refunded)
    if (!gatewayHeld.isEqualTo(medusaHeld)) {
      changes.push(
        `The gateway holds ${moneyText(gatewayHeld, currency)} captured and not refunded, Medusa ${moneyText(medusaHeld, currency)}.`,
      )
    }
  }
  return changes.join(" ")
}

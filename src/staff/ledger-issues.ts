/**
 * What the ledger knows about a payment that staff must see on the order page, because the
 * gateway's own record does not show it (yet):
 *
 * - a write whose answer was lost (outcome `unknown`), or that was sent and never settled
 *   (`requested` for longer than a request can take): its money may or may not have moved,
 *   and repeating it by hand could move it twice. The reconciliation job settles it.
 * - a mobile refund or reversal the scheme rejected after accepting it: Medusa has already
 *   recorded it, but the shopper did not get the money.
 * - a mobile refund or reversal the scheme has not settled yet.
 * - a capture or refund whose Medusa record outlived the process that sent it (killed
 *   mid-call), sent again under its own key and refused by the gateway: Medusa shows money
 *   that did not move (the write is `refused` and claimed by that record; core/send-once.ts).
 * - a mobile refund the service made whose Medusa refund Medusa dropped (its answer was lost,
 *   or Medusa's own update failed after it), taken over by no later refund: the shopper has
 *   money back that Medusa does not show. A card refund like it is recorded from the order's operations; the mobile payment
 *   service lists no refunds, so only staff can record it (a refund of the same amount).
 *
 * Pure over the ledger's writes (ledgerIssuesOf), so every sentence is unit-testable.
 */

import { AFTER_REJECTION, isApmWrite } from "../core/mobile/apm-writes"
import { isUnsettled, orphanedWrites } from "../core/send-once"
import type { MoneyWrite, WriteKind } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"
import type { NexiLedgerIssue } from "./contract"

/** How staff name each kind of write, and what they must not do again while its outcome is unknown. */
const WORDS: Record<WriteKind, { noun: string; repeat: string }> = {
  capture: { noun: "Capture", repeat: "capture" },
  refund: { noun: "Refund", repeat: "refund" },
  void: { noun: "Void", repeat: "void" },
  cancel_capture: { noun: "Cancellation of a capture", repeat: "cancel the capture" },
  moto: { noun: "MOTO payment", repeat: "charge the card" },
  apm_refund: { noun: "Refund", repeat: "refund" },
  apm_reversal: { noun: "Reversal", repeat: "reverse or refund" },
  // Listed with the saved card (customer-saved-cards.ts), never with a payment: it belongs to no order.
  contract_deactivation: { noun: "Deactivation of a saved card", repeat: "delete the card" },
  mit_charge: { noun: "Charge of a saved card", repeat: "charge the saved card" },
  link_creation: { noun: "Payment link", repeat: "create another link" },
  link_cancellation: { noun: "Cancellation of a payment link", repeat: "cancel the link" },
  apm_payment: { noun: "Mobile payment", repeat: "start the payment" },
}

/** Held by none of the payment's own rows (`heldRows`: the payment and its refunds): Medusa dropped its holder. */
function heldByDroppedRow(write: MoneyWrite, heldRows: ReadonlySet<string> | undefined): boolean {
  return (
    heldRows !== undefined &&
    write.outcome === "executed" &&
    write.claimed_by !== null &&
    write.follow_state !== "rejected" &&
    !heldRows.has(write.claimed_by)
  )
}

function problemOf(
  write: MoneyWrite,
  now: Date,
  heldRows: ReadonlySet<string> | undefined,
): NexiLedgerIssue["problem"] | undefined {
  // Rejected first: a rejected write's outcome is settled, and its consequence is the graver.
  if (write.follow_state === "rejected") return "scheme_rejected"
  if (isUnsettled(write, now)) return "outcome_unknown"
  if (write.follow_state === "following") return "scheme_pending"
  if (write.outcome === "refused" && write.claimed_by) return "refused_with_record"
  if (orphanedWrites([write], "apm_refund").length) return "unrecorded_refund"
  if (write.kind === "apm_refund" && heldByDroppedRow(write, heldRows)) return "unrecorded_refund"
  return undefined
}

function sentence(write: MoneyWrite, problem: NexiLedgerIssue["problem"], money: string): string {
  const { noun, repeat } = WORDS[write.kind]
  switch (problem) {
    case "outcome_unknown":
      return `${noun} of ${money}: the gateway's answer was lost and its outcome is not known yet; do not ${repeat} again, the plugin checks every minute.`
    case "scheme_rejected": {
      const reason = write.message ? `: ${write.message}` : ""
      const left = isApmWrite(write) ? AFTER_REJECTION[write.kind].consequence : "the money did not move"
      return `${noun} of ${money} was rejected by the scheme${reason}; ${left}.`
    }
    case "refused_with_record": {
      const reason = write.message ? ` (${write.message})` : ""
      return `${noun} of ${money} is recorded in Medusa (${write.claimed_by}), but the gateway refused to make it${reason}; the money did not move — ${repeat} again at the gateway or correct Medusa's record.`
    }
    case "unrecorded_refund":
      return `${noun} of ${money} was made by the mobile payment service, but Medusa does not show it: Medusa dropped its refund (its answer was lost, or Medusa's own update failed). The shopper has the money back; refunding the same amount in Medusa records it without refunding again.`
    case "scheme_pending":
      return `${noun} of ${money} is not settled by the scheme yet; the plugin checks every minute and shows here if the scheme rejects it.`
  }
}

/**
 * The writes that need attention, oldest first (the ledger's order).
 * @param heldRows the ids of the payment and its Medusa refunds, when known
 */
export function ledgerIssuesOf(
  writes: readonly MoneyWrite[],
  now: Date,
  heldRows?: ReadonlySet<string>,
): NexiLedgerIssue[] {
  return writes.flatMap((write) => {
    const problem = problemOf(write, now, heldRows)
    if (!problem) return []
    const currency = write.currency.toUpperCase()
    const amount = { amount: minorToMajorString(write.amount_minor, currency), currency }
    return [
      {
        write_id: write.id,
        kind: write.kind,
        problem,
        amount,
        requested_at: new Date(write.created_at).toISOString(),
        message: sentence(write, problem, `${amount.amount} ${currency}`),
      },
    ]
  })
}

import { STALE_REQUEST_MS } from "../../core/send-once"
import type { MoneyWrite } from "../../modules/nexi-ledger/types"
import { ledgerIssuesOf } from "../payment-views"

const NOW = new Date("2026-03-01T12:00:00Z")

function write(overrides: Partial<MoneyWrite>): MoneyWrite {
  return {
    id: "nexwri_1",
    kind: "refund",
    origin: "medusa",
    idempotency_key: "key-1",
    gateway_ref: "ORDER1",
    target_ref: null,
    amount_minor: "500",
    currency: "EUR",
    medusa_ref: null,
    outcome: "executed",
    gateway_operation_id: null,
    follow_state: "none",
    resend: null,
    claimed_by: null,
    message: null,
    created_at: new Date(NOW.getTime() - 10 * 60_000),
    updated_at: NOW,
    ...overrides,
  }
}

const messages = (writes: MoneyWrite[]) => ledgerIssuesOf(writes, NOW).map((issue) => [issue.problem, issue.message])

describe("ledgerIssuesOf", () => {
  it("warns not to repeat a write whose answer was lost, in the currency's own decimals", () => {
    expect(
      messages([
        write({ outcome: "unknown" }),
        write({ kind: "capture", outcome: "unknown", amount_minor: "5000", currency: "jpy" }),
      ]),
    ).toEqual([
      [
        "outcome_unknown",
        "Refund of 5.00 EUR: the gateway's answer was lost and its outcome is not known yet; do not refund again, the plugin checks every minute.",
      ],
      [
        "outcome_unknown",
        "Capture of 5000 JPY: the gateway's answer was lost and its outcome is not known yet; do not capture again, the plugin checks every minute.",
      ],
    ])
  })

  it("counts a write still requested after any request could take as lost, and leaves one in flight alone", () => {
    const stale = write({ outcome: "requested", updated_at: new Date(NOW.getTime() - STALE_REQUEST_MS - 1) })
    const inFlight = write({ id: "nexwri_2", outcome: "requested", updated_at: new Date(NOW.getTime() - 1_000) })
    expect(ledgerIssuesOf([stale, inFlight], NOW).map((issue) => [issue.write_id, issue.problem])).toEqual([
      ["nexwri_1", "outcome_unknown"],
    ])
  })

  it("says what is left to do after the scheme rejected a mobile refund or reversal Medusa recorded", () => {
    expect(
      messages([
        write({ kind: "apm_refund", follow_state: "rejected", message: "the transaction is ERROR" }),
        write({ kind: "apm_reversal", follow_state: "rejected", amount_minor: "1250" }),
      ]),
    ).toEqual([
      [
        "scheme_rejected",
        "Refund of 5.00 EUR was rejected by the scheme: the transaction is ERROR; Medusa still counts it as refunded — refund the shopper another way.",
      ],
      [
        "scheme_rejected",
        "Reversal of 12.50 EUR was rejected by the scheme; the payment was not reversed — reverse or refund it at the scheme.",
      ],
    ])
  })

  it("tells staff of a mobile refund the service made that no Medusa refund records", () => {
    expect(
      messages([
        write({ kind: "apm_refund", amount_minor: "720", medusa_ref: "ref_gone" }),
        write({ kind: "apm_refund", claimed_by: "ref_kept" }),
        write({ kind: "apm_refund", origin: "release" }),
        write({ kind: "apm_refund", outcome: "refused" }),
      ]),
    ).toEqual([
      [
        "unrecorded_refund",
        "Refund of 7.20 EUR was made by the mobile payment service, but Medusa does not show it: Medusa dropped its refund (its answer was lost, or Medusa's own update failed). The shopper has the money back; refunding the same amount in Medusa records it without refunding again.",
      ],
    ])
  })

  it("tells staff of a mobile refund held by a Medusa refund the payment no longer has", () => {
    const issues = ledgerIssuesOf(
      [
        write({ kind: "apm_refund", claimed_by: "ref_dropped" }),
        write({ kind: "apm_refund", claimed_by: "ref_kept" }),
        write({ kind: "apm_refund", claimed_by: "ref_dropped", follow_state: "rejected" }),
      ],
      NOW,
      new Set(["pay_1", "ref_kept"]),
    )
    expect(issues.map((issue) => issue.problem)).toEqual(["unrecorded_refund", "scheme_rejected"])
  })

  it("shows a mobile refund the scheme has not settled yet, and nothing for settled writes", () => {
    const issues = ledgerIssuesOf(
      [
        write({ kind: "apm_refund", follow_state: "following", claimed_by: "ref_1" }),
        write({ follow_state: "done" }),
        write({ outcome: "refused" }),
      ],
      NOW,
    )
    expect(issues).toEqual([
      {
        write_id: "nexwri_1",
        kind: "apm_refund",
        problem: "scheme_pending",
        amount: { amount: "5.00", currency: "EUR" },
        requested_at: "2026-03-01T11:50:00.000Z",
        message:
          "Refund of 5.00 EUR is not settled by the scheme yet; the plugin checks every minute and shows here if the scheme rejects it.",
      },
    ])
  })
})

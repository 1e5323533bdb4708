/**
 * A mobile-payment refund the scheme accepts (INITIALIZED) and rejects later is shown and
 * logged, not silently counted: a real Medusa store on PostgreSQL, the simulator's held refunds
 * (consumerId ending in 3333, docs/simulator-apm.md), the reconciliation job run explicitly
 * while the suite holds the scheduled job's lock, and the admin's order route read as staff.
 * Medusa has no way to take a refund back, so it keeps counting the rejected refund; the
 * plugin's part is the ledger's `rejected` state, an error-level log line and the red issue.
 */
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MoneyWrite, PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { reconcilePendingSessions } from "../../src/reconciliation/reconcile-pending-sessions"
import type { NexiLedgerIssue, NexiOrderPaymentsResponse } from "../../src/staff/contract"
import { adminHeaders } from "../support/admin-auth"
import { CheckoutKit } from "../support/checkout-kit"
import { holdReconcileLock } from "../support/hold-reconcile-lock"
import { simulatorForSuite } from "../support/simulator"
import { suiteOutput } from "../support/suite-output"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

const PROVIDER = "pp_nexi-apm-psp-b_nexi"
/** The simulator holds this consumer's refunds INITIALIZED until a control call decides. */
const HELD_REFUNDS_CONSUMER = "+4712343333"
/** The simulator's reason for a held refund it rejects. */
const SCHEME_REASON = "The payer's account cannot receive refunds"
const STILL_COUNTED = "Medusa still counts it as refunded — refund the shopper another way"

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
/** A job run as the scheduled job would make it ten minutes from now, when every write is due. */
const later = () => new Date(Date.now() + 10 * 60_000)

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit
    let auth: { headers: Record<string, string> }

    beforeEach(async () => {
      await simulator.control("POST", "/reset")
      await simulator.control("DELETE", "/faults")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      auth = await adminHeaders(getContainer(), api)
      // Only this suite's explicit runs may follow the refund.
      await holdReconcileLock(getContainer(), "apm-refund-rejected-suite")
    })

    const ledger = () => getContainer().resolve<PaymentLedger>("nexi_ledger")
    const refundWrites = async (transactionId: string) =>
      (await ledger().writesOf(transactionId)).filter((write) => write.kind === "apm_refund")

    /** Checkout with the held-refunds consumer, approved in the app, the cart completed by the status route. */
    const paidApmOrder = () => kit.paidMobileOrder(HELD_REFUNDS_CONSUMER, PROVIDER)

    /** Refunds `amount` through Medusa's workflow; returns the ledger's write and the scheme's refund transaction. */
    async function refundHeld(paid: Awaited<ReturnType<typeof paidApmOrder>>, amount: number) {
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: paid.payment.id, amount } })
      const [refunded] = await kit.paymentsOfOrder(paid.orderId)
      expect(refunded.refunds.map((refund) => Number(refund.amount))).toEqual([amount])
      const writes = await refundWrites(paid.transactionId)
      expect(writes).toHaveLength(1)
      const [write] = writes
      expect(write).toMatchObject({
        outcome: "executed",
        follow_state: "following",
        claimed_by: refunded.refunds[0].id,
      })
      const refundTransactionId = String(write.gateway_operation_id)
      expect(refunded.data.refund_transaction_ids).toEqual([refundTransactionId])
      const held = await simulator.apmTransaction(refundTransactionId)
      expect(held.state).toBe("INITIALIZED")
      expect(held.response?.request?.transaction?.originalReference).toBe(paid.transactionId)
      return { write, refundTransactionId, refundId: refunded.refunds[0].id }
    }

    async function issuesOf(orderId: string): Promise<NexiLedgerIssue[]> {
      const { data } = (await api.get(`/admin/nexi/medusa-orders/${orderId}/payments`, auth)) as {
        data: NexiOrderPaymentsResponse
      }
      expect(data.payments).toHaveLength(1)
      return data.payments[0].ledger_issues
    }

    it("logs, records and shows a refund the scheme rejects after accepting it; a second job run changes nothing", async () => {
      const paid = await paidApmOrder()
      const { write, refundTransactionId } = await refundHeld(paid, 5)

      const pending = await issuesOf(paid.orderId)
      expect(pending).toEqual([
        expect.objectContaining({
          write_id: write.id,
          kind: "apm_refund",
          problem: "scheme_pending",
          amount: { amount: "5.00", currency: "EUR" },
          message: expect.stringMatching(/^Refund of 5\.00 EUR is not settled by the scheme yet/),
        }),
      ])

      // The scheme turns the refund down after the fact.
      const decided = await simulator.control<{ state: string; previousState: string }>(
        "POST",
        `/apm/${refundTransactionId}/reject`,
      )
      expect(decided).toMatchObject({ previousState: "INITIALIZED", state: "REJECTED" })

      const logFrom = suiteOutput().chunks().length
      const summary = await reconcilePendingSessions(getContainer(), later())
      expect(summary.outcomes.failed).toBeUndefined()
      expect(summary.checked).toBeGreaterThanOrEqual(1)

      const [rejected] = await refundWrites(paid.transactionId)
      expect(rejected).toMatchObject({
        id: write.id,
        outcome: "executed",
        follow_state: "rejected",
        gateway_operation_id: refundTransactionId,
      })
      expect(rejected.message).toContain(SCHEME_REASON)

      const logged = suiteOutput().textSince(logFrom)
      const rejectionLine = new RegExp(
        `refund ${refundTransactionId} of 5\\.00 EUR on transaction ${paid.transactionId} was rejected by the scheme: ${escapeRegExp(SCHEME_REASON)}; ${escapeRegExp(STILL_COUNTED)}`,
      )
      expect(logged).toMatch(rejectionLine)
      // Logged once, at error level (Medusa's JSON logger in tests, or its text format).
      const lines = logged.split("\n").filter((line) => rejectionLine.test(line))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/"level":"error"|^\S*error\S*:/)

      const shown = await issuesOf(paid.orderId)
      expect(shown).toEqual([
        expect.objectContaining({
          write_id: write.id,
          kind: "apm_refund",
          problem: "scheme_rejected",
          amount: { amount: "5.00", currency: "EUR" },
          message: `Refund of 5.00 EUR was rejected by the scheme: ${SCHEME_REASON}; ${STILL_COUNTED}.`,
        }),
      ])

      // Medusa still counts the refund: it cannot take one back.
      const [counted] = await kit.paymentsOfOrder(paid.orderId)
      expect(counted.refunds.map((refund) => Number(refund.amount))).toEqual([5])

      // A second run: the rejected write is settled, so nothing changes and nothing new is logged about it.
      const before: MoneyWrite[] = await ledger().writesOf(paid.transactionId)
      const secondFrom = suiteOutput().chunks().length
      const second = await reconcilePendingSessions(getContainer(), new Date(Date.now() + 20 * 60_000))
      expect(second.outcomes.failed).toBeUndefined()
      expect(await ledger().writesOf(paid.transactionId)).toEqual(before)
      const secondLog = suiteOutput().textSince(secondFrom)
      expect(secondLog).not.toMatch(/was rejected by the scheme/)
      expect(secondLog).not.toContain(refundTransactionId)
      expect(await issuesOf(paid.orderId)).toEqual(shown)
      const [still] = await kit.paymentsOfOrder(paid.orderId)
      expect(still.refunds.map((refund) => Number(refund.amount))).toEqual([5])
      expect((await simulator.apmTransaction(refundTransactionId)).state).toBe("REJECTED")
    })

    it("marks a held refund the scheme approves done when staff press Sync, with no issue left and no rejection logged", async () => {
      const paid = await paidApmOrder()
      const { write, refundTransactionId } = await refundHeld(paid, 4)
      expect((await issuesOf(paid.orderId)).map((issue) => issue.problem)).toEqual(["scheme_pending"])

      const decided = await simulator.control<{ state: string; previousState: string }>(
        "POST",
        `/apm/${refundTransactionId}/approve`,
      )
      expect(decided).toMatchObject({ previousState: "INITIALIZED", state: "FINALIZED" })

      const logFrom = suiteOutput().chunks().length
      // Staff's Sync is the job's sync of the transaction: it follows the held refund now.
      const synced = await api.post(`/admin/nexi/payments/${paid.payment.id}/sync`, {}, auth)
      expect(synced.data.message).toMatch(/Its refunds and reversals were settled as the job settles them/)

      const [settled] = await refundWrites(paid.transactionId)
      expect(settled).toMatchObject({
        id: write.id,
        outcome: "executed",
        follow_state: "done",
        gateway_operation_id: refundTransactionId,
      })
      expect(await issuesOf(paid.orderId)).toEqual([])
      expect(suiteOutput().textSince(logFrom)).not.toMatch(/was rejected by the scheme/)
      const [refunded] = await kit.paymentsOfOrder(paid.orderId)
      expect(refunded.refunds.map((refund) => Number(refund.amount))).toEqual([4])

      // Nothing is followed any more: a second run leaves the write as it is.
      const before = await ledger().writesOf(paid.transactionId)
      await reconcilePendingSessions(getContainer(), new Date(Date.now() + 20 * 60_000))
      expect(await ledger().writesOf(paid.transactionId)).toEqual(before)
    })
  },
})

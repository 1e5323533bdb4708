/**
 * Runs with the container stand-in of ./support/container (the use case's Medusa
 * dependencies reduced to the methods it calls). The refund path that runs Medusa's
 * refundPaymentWorkflow needs a real Medusa app and is left to the integration suites.
 */
import type { MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflowId } from "@medusajs/medusa/core-flows"
import { applyPaymentAction } from "../apply-payment-action"
import { testContainer } from "./support/container"

function result(action: WebhookActionResult["action"], data?: Record<string, unknown>): WebhookActionResult {
  return { action, data } as WebhookActionResult
}

const session = { id: "payses_1", status: "pending", data: { order_id: "ORD1" }, amount: 10, currency_code: "eur" }

describe("applyPaymentAction", () => {
  it("leaves a result without a session unchanged, touching nothing", async () => {
    const nothing = {
      resolve(name: string) {
        throw new Error(`resolved ${name}`)
      },
    } as unknown as MedusaContainer
    await expect(applyPaymentAction(nothing, result(PaymentActions.FAILED), { includeSuccess: true })).resolves.toBe("unchanged")
    await expect(applyPaymentAction(nothing, result(PaymentActions.AUTHORIZED, { amount: 1 }), { includeSuccess: true })).resolves.toBe(
      "unchanged",
    )
  })

  it.each([PaymentActions.AUTHORIZED, PaymentActions.SUCCESSFUL])("runs core's payment workflow for %s when asked to", async (action) => {
    const { container, workflowRuns } = testContainer()
    const paid = result(action, { session_id: "payses_1", amount: 10 })
    await expect(applyPaymentAction(container, paid, { includeSuccess: true })).resolves.toBe("completed")
    expect(workflowRuns).toEqual([{ workflowId: processPaymentWorkflowId, options: { input: paid } }])
  })

  it.each([PaymentActions.AUTHORIZED, PaymentActions.SUCCESSFUL])("leaves %s to core's subscriber otherwise", async (action) => {
    const { container, workflowRuns } = testContainer()
    await expect(applyPaymentAction(container, result(action, { session_id: "payses_1", amount: 10 }), { includeSuccess: false })).resolves.toBe(
      "unchanged",
    )
    expect(workflowRuns).toEqual([])
  })

  it("marks the session error with the reason for FAILED", async () => {
    const { container, payment } = testContainer()
    payment.sessions.push({ ...session })
    const failed = result(PaymentActions.FAILED, { session_id: "payses_1", amount: 10, nexi_reason: "declined" })
    await expect(applyPaymentAction(container, failed, { includeSuccess: false })).resolves.toBe("marked_error")
    expect(payment.sessionUpdates).toEqual([
      {
        id: "payses_1",
        amount: 10,
        currency_code: "eur",
        data: { order_id: "ORD1", status: "error", reason: "declined" },
        status: "error",
      },
    ])
  })

  it("marks the session canceled for CANCELED", async () => {
    const { container, payment } = testContainer()
    payment.sessions.push({ ...session })
    const canceled = result(PaymentActions.CANCELED, { session_id: "payses_1", amount: 10, nexi_reason: "shopper gave up" })
    await expect(applyPaymentAction(container, canceled, { includeSuccess: true })).resolves.toBe("marked_canceled")
    expect(payment.sessionUpdates).toHaveLength(1)
    expect(payment.sessionUpdates[0]).toMatchObject({ status: "canceled", data: { status: "canceled", reason: "shopper gave up" } })
  })

  it.each(["authorized", "captured"])("never moves a %s session backwards", async (status) => {
    const { container, payment } = testContainer()
    payment.sessions.push({ ...session, status })
    const failed = result(PaymentActions.FAILED, { session_id: "payses_1", amount: 10 })
    await expect(applyPaymentAction(container, failed, { includeSuccess: true })).resolves.toBe("unchanged")
    expect(payment.sessionUpdates).toEqual([])
  })

  it("leaves a session already in the status, or a missing one, unchanged", async () => {
    const { container, payment } = testContainer()
    payment.sessions.push({ ...session, status: "canceled" })
    const canceled = result(PaymentActions.CANCELED, { session_id: "payses_1", amount: 10 })
    await expect(applyPaymentAction(container, canceled, { includeSuccess: true })).resolves.toBe("unchanged")
    const gone = result(PaymentActions.FAILED, { session_id: "payses_gone", amount: 10 })
    await expect(applyPaymentAction(container, gone, { includeSuccess: true })).resolves.toBe("unchanged")
    expect(payment.sessionUpdates).toEqual([])
  })

  it("takes other actions to the refund path, which does nothing when the gateway refunded nothing", async () => {
    const { container, payment, workflowRuns } = testContainer()
    payment.payments.push({ id: "pay_1", payment_session_id: "payses_1", refunds: [] })
    for (const nexi_refunded of [undefined, "0", "-1"]) {
      const other = result(PaymentActions.NOT_SUPPORTED, { session_id: "payses_1", amount: 10, nexi_refunded })
      await expect(applyPaymentAction(container, other, { includeSuccess: true })).resolves.toBe("unchanged")
    }
    expect(payment.sessionUpdates).toEqual([])
    expect(workflowRuns).toEqual([])
  })

  it("records no refund when Medusa has no payment for the session", async () => {
    const { container } = testContainer()
    const refunded = result(PaymentActions.PENDING, { session_id: "payses_1", amount: 10, nexi_refunded: "5" })
    await expect(applyPaymentAction(container, refunded, { includeSuccess: true })).resolves.toBe("unchanged")
  })

  it("records no refund when Medusa's refunds already cover the gateway's (raw amounts first)", async () => {
    const { container, payment } = testContainer()
    payment.payments.push({
      id: "pay_1",
      payment_session_id: "payses_1",
      refunds: [
        { id: "ref_1", amount: 1, raw_amount: { value: "3.5", precision: 20 }, metadata: null },
        { id: "ref_2", amount: 1.5, metadata: {} },
      ],
    })
    const refunded = result(PaymentActions.NOT_SUPPORTED, { session_id: "payses_1", amount: 10, nexi_refunded: "5" })
    await expect(applyPaymentAction(container, refunded, { includeSuccess: true })).resolves.toBe("unchanged")
  })
})

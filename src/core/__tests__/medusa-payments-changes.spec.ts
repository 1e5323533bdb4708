/**
 * Runs with the container stand-in of src/reconciliation/__tests__/support/container (Medusa's
 * dependencies reduced to the methods the changes call). The paths that run Medusa's capture
 * and refund workflows need a real Medusa app and are left to the integration suites
 * (faults/recorded-once).
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflowId } from "@medusajs/medusa/core-flows"
import type { WritePatch } from "../../modules/nexi-ledger/types"
import { type TestContainer, testContainer } from "../../reconciliation/__tests__/support/container"
import type { GatewayPayment } from "../gateway-money-records"
import type { CompletionLock } from "../medusa-payments"
import { MedusaChanges } from "../medusa-payments"
import type { SessionRecord } from "../medusa-records"
import { BUSY } from "../payment-lock"
import { op } from "./operation-builder"

const session: SessionRecord = {
  id: "payses_1",
  status: "pending",
  data: { order_id: "ORD1" },
  amount: 10,
  currency_code: "eur",
}

/** Medusa's locking module as the completion lock uses it: a held key answers BUSY at once. */
function completionLock(): CompletionLock {
  const held = new Set<string>()
  return async (sessionId, job) => {
    if (held.has(sessionId)) return BUSY
    held.add(sessionId)
    try {
      return await job()
    } finally {
      held.delete(sessionId)
    }
  }
}

function changes(
  test: TestContainer,
  locks: string[] = [],
  orderSessions: string[][] = [],
  lockedCarts: string[] = [],
  lockCompletion: CompletionLock = completionLock(),
): MedusaChanges {
  return new MedusaChanges({
    container: test.container,
    payments: test.payment as unknown as IPaymentModuleService,
    ledger: test.ledger,
    lockPayment: async (paymentId, job) => {
      locks.push(paymentId)
      return job()
    },
    lockCompletion,
    authorizeOrderSession: async (sessionId, gatewayOrderId) => {
      orderSessions.push([sessionId, gatewayOrderId])
      return "recorded"
    },
    isCartLocked: async (cartId) => lockedCarts.includes(cartId),
    // Medusa's bookkeeping of rows whose workflow died runs on a real store (the crash suite).
    finishBookkeeping: async () => 0,
  })
}

function read(status: GatewayPayment["status"], more: Partial<GatewayPayment> = {}): GatewayPayment {
  return {
    status,
    currency: "EUR",
    authorizedMinor: "1000",
    capturedMinor: status === "captured" ? "1000" : "0",
    gatewayRef: "ORDER-1",
    ...more,
  }
}

describe("MedusaChanges", () => {
  it.each([
    ["authorized", PaymentActions.AUTHORIZED],
    ["captured", PaymentActions.SUCCESSFUL],
  ] as const)(
    "completes a pending session the gateway shows %s through core's payment workflow",
    async (status, action) => {
      const test = testContainer()
      await expect(changes(test).apply(session, read(status))).resolves.toBe("completed")
      expect(test.workflowRuns).toHaveLength(1)
      expect(test.workflowRuns[0].workflowId).toBe(processPaymentWorkflowId)
      const { input } = test.workflowRuns[0].options as {
        input: { action: string; data: { session_id: string; amount: unknown } }
      }
      expect(input.action).toBe(action)
      expect(input.data.session_id).toBe("payses_1")
      expect(String(input.data.amount)).toBe("10")
    },
  )

  it("records a paid staff session (a payment link's) through the staff pipeline, not the cart's workflow", async () => {
    const test = testContainer()
    const recorded: string[][] = []
    const linkSession = {
      ...session,
      status: "pending_authorization",
      data: { order_id: "ORD1", staff_channel: "payment_link" },
    }
    await expect(changes(test, [], recorded).apply(linkSession, read("captured", { orderId: "ORD1" }))).resolves.toBe(
      "completed",
    )
    expect(recorded).toEqual([["payses_1", "ORD1"]])
    expect(test.workflowRuns).toEqual([])
  })

  describe("a cart the shopper's checkout may be completing", () => {
    it("is left to that checkout only while its lock is held and the gateway says paid", async () => {
      const test = testContainer()
      const medusa = changes(test, [], [], ["cart_held"])
      await expect(medusa.checkoutCompleting(session, "authorized", "cart_held")).resolves.toBe(true)
      await expect(medusa.checkoutCompleting(session, "captured", "cart_held")).resolves.toBe(true)
      await expect(medusa.checkoutCompleting(session, "authorized", "cart_free")).resolves.toBe(false)
      await expect(medusa.checkoutCompleting(session, "pending", "cart_held")).resolves.toBe(false)
      await expect(medusa.checkoutCompleting(session, "authorized", null)).resolves.toBe(false)
    })

    it("is not asked of a session Medusa holds as paid, nor of a staff session, which has no cart", async () => {
      const test = testContainer()
      const medusa = changes(test, [], [], ["cart_held"])
      await expect(
        medusa.checkoutCompleting({ ...session, status: "authorized" }, "authorized", "cart_held"),
      ).resolves.toBe(false)
      const linkSession = { ...session, data: { order_id: "ORD1", staff_channel: "payment_link" } }
      await expect(medusa.checkoutCompleting(linkSession, "authorized", "cart_held")).resolves.toBe(false)
    })
  })

  it("completes a session once when copies of its notification, the job and a poll find it pending at once", async () => {
    const test = testContainer()
    const lock = completionLock()
    const callers = [1, 2, 3].map(() => changes(test, [], [], [], lock))
    const outcomes = await Promise.all(callers.map((medusa) => medusa.apply(session, read("captured"))))
    expect(outcomes.sort()).toEqual(["completed", "left_to_checkout", "left_to_checkout"])
    expect(test.workflowRuns).toHaveLength(1)
    // One that read the session as pending before that completion ended finds it paid once it holds the lock.
    test.payment.sessions.push({ id: "payses_1", status: "authorized" })
    await expect(changes(test, [], [], [], lock).apply(session, read("captured"))).resolves.toBe("unchanged")
    expect(test.workflowRuns).toHaveLength(1)
  })

  it("never completes a session Medusa already holds as paid", async () => {
    const test = testContainer()
    for (const status of ["authorized", "captured"]) {
      await expect(changes(test).apply({ ...session, status }, read("captured"))).resolves.toBe("unchanged")
    }
    expect(test.workflowRuns).toEqual([])
  })

  it("marks the session error with the reason", async () => {
    const test = testContainer()
    test.payment.sessions.push({ ...session })
    await expect(changes(test).apply(session, read("error", { reason: "declined" }))).resolves.toBe("marked_error")
    expect(test.payment.sessionUpdates).toEqual([
      {
        id: "payses_1",
        amount: 10,
        currency_code: "eur",
        data: { order_id: "ORD1", status: "error", reason: "declined" },
        status: "error",
      },
    ])
  })

  it("marks the session canceled", async () => {
    const test = testContainer()
    test.payment.sessions.push({ ...session })
    await expect(changes(test).apply(session, read("canceled", { reason: "shopper gave up" }))).resolves.toBe(
      "marked_canceled",
    )
    expect(test.payment.sessionUpdates).toHaveLength(1)
    expect(test.payment.sessionUpdates[0]).toMatchObject({
      status: "canceled",
      data: { status: "canceled", reason: "shopper gave up" },
    })
  })

  it.each(["authorized", "captured"])("never moves a %s session backwards", async (status) => {
    const test = testContainer()
    test.payment.sessions.push({ ...session, status })
    // The session as the sync read it was still pending; Medusa's own row got further meanwhile.
    await expect(changes(test).apply(session, read("error"))).resolves.toBe("unchanged")
    expect(test.payment.sessionUpdates).toEqual([])
  })

  it("leaves a session already in the status, or a missing one, unchanged", async () => {
    const test = testContainer()
    test.payment.sessions.push({ ...session, status: "canceled" })
    await expect(changes(test).apply(session, read("canceled"))).resolves.toBe("unchanged")
    await expect(changes(test).apply({ ...session, id: "payses_gone" }, read("error"))).resolves.toBe("unchanged")
    expect(test.payment.sessionUpdates).toEqual([])
  })

  it("leaves a pending read unchanged", async () => {
    const test = testContainer()
    await expect(changes(test).apply(session, read("pending"))).resolves.toBe("unchanged")
    expect(test.workflowRuns).toEqual([])
    expect(test.payment.sessionUpdates).toEqual([])
  })

  describe("a payment Medusa holds", () => {
    const paid = { ...session, status: "authorized" }

    it("records nothing, and takes no lock, when the gateway captured and refunded nothing Medusa lacks", async () => {
      const test = testContainer()
      const locks: string[] = []
      test.payment.payments.push({
        id: "pay_1",
        payment_session_id: "payses_1",
        captures: [{ id: "cap_1", amount: 10 }],
        refunds: [
          { id: "ref_1", amount: 1, raw_amount: { value: "3.5", precision: 20 }, metadata: null },
          { id: "ref_2", amount: 1.5, metadata: {} },
        ],
      })
      const gateway = read("captured", {
        orderId: "ORD1",
        captureOperationId: "OP_CAPTURE",
        refunds: [{ operationId: "OP_R1", amountMinor: "500", settled: true }],
        refundedMinor: "500",
      })
      await expect(changes(test, locks).apply(paid, gateway)).resolves.toBe("unchanged")
      expect(locks).toEqual([])
      expect(test.workflowRuns).toEqual([])
    })

    it("reads none of Medusa's payments when the gateway holds no capture and no settled refund", async () => {
      const test = testContainer()
      test.payment.listPayments = async () => {
        throw new Error("read Medusa's payment")
      }
      const gateway = read("authorized", {
        orderId: "ORD1",
        refunds: [{ operationId: "OP_R1", amountMinor: "500", settled: false }],
      })
      await expect(changes(test).apply(paid, gateway)).resolves.toBe("unchanged")
    })

    it("records nothing when Medusa has no payment for the session", async () => {
      const test = testContainer()
      const gateway = read("captured", { orderId: "ORD1", captureOperationId: "OP_CAPTURE" })
      await expect(changes(test).apply(paid, gateway)).resolves.toBe("unchanged")
    })

    it("records nothing for a mobile payment, which has no gateway order", async () => {
      const test = testContainer()
      test.payment.payments.push({ id: "pay_1", payment_session_id: "payses_1", captures: [], refunds: [] })
      await expect(changes(test).apply(paid, read("captured"))).resolves.toBe("unchanged")
    })

    it.each([
      ["a live capture of the payment", "capt_1"],
      ["the payment (not a capture row)", "pay_1"],
    ])("records nothing for a capture Medusa sent whose write %s holds", async (_label, holder) => {
      const test = testContainer()
      const locks: string[] = []
      const captures = holder === "capt_1" ? [{ id: "capt_1", amount: 5, raw_amount: { value: "5" } }] : []
      test.payment.payments.push({ id: "pay_1", payment_session_id: "payses_1", captures, refunds: [] })
      await test.ledger.requestWrite({
        kind: "capture",
        gateway_ref: "ORD1",
        idempotency_key: "k1",
        amount_minor: "1000",
        currency: "EUR",
      })
      await test.ledger.updateWrite("k1", {
        outcome: "executed",
        gateway_operation_id: "OP_CAPTURE",
        claimed_by: holder,
      })
      const gateway = read("captured", { orderId: "ORD1", captureOperationId: "OP_CAPTURE" })
      await expect(changes(test, locks).apply(paid, gateway)).resolves.toBe("unchanged")
      expect(locks).toEqual(["pay_1"])
      expect(test.workflowRuns).toEqual([])
    })
  })

  describe("a capture the gateway cancelled while Medusa counts it captured", () => {
    const paid = { ...session, status: "captured" }
    // The capture, undone by its CANCEL: the read model's entries as the sync hands them on.
    const cancelled = read("authorized", {
      orderId: "ORD1",
      operations: [
        {
          operation: op("OP_CAPTURE", "CAPTURE", "EXECUTED", 1),
          amountMinor: "1000",
          moved: "capture",
          undoneBy: { operationId: "OP_CANCEL", kind: "cancel" },
        },
        {
          operation: op("OP_CANCEL", "CANCEL", "EXECUTED", 2, { cancelledOperationId: "OP_CAPTURE" }),
          amountMinor: "1000",
          undoKind: "cancel",
          undoes: "OP_CAPTURE",
        },
      ],
    })

    function withCapture(refunds: unknown[] = [], canceledAt: Date | null = null) {
      const test = testContainer()
      test.payment.payments.push({
        id: "pay_1",
        payment_session_id: "payses_1",
        canceled_at: canceledAt,
        captures: [{ id: "capt_1", amount: 10 }],
        refunds,
      })
      return test
    }

    it("takes no lock when Medusa's refund names the cancel already", async () => {
      const locks: string[] = []
      const test = withCapture([
        {
          id: "ref_1",
          amount: 10,
          metadata: { nexi_operation_id: "OP_CANCEL", nexi_cancelled_capture_id: "OP_CAPTURE" },
        },
      ])
      await expect(changes(test, locks).apply(paid, cancelled)).resolves.toBe("unchanged")
      expect(locks).toEqual([])
      expect(test.workflowRuns).toEqual([])
    })

    it("takes no lock when Medusa holds nothing captured and not refunded: there is nothing to take back", async () => {
      const locks: string[] = []
      const test = withCapture([{ id: "ref_1", amount: 10, metadata: null }])
      await expect(changes(test, locks).apply(paid, cancelled)).resolves.toBe("unchanged")
      expect(locks).toEqual([])
    })

    it("leaves a cancel Medusa's own payment cancel sent to that cancel, and a payment Medusa cancelled", async () => {
      const locks: string[] = []
      const test = withCapture()
      await test.ledger.requestWrite({
        kind: "cancel_capture",
        gateway_ref: "ORD1",
        target_ref: "OP_CAPTURE",
        amount_minor: "1000",
        currency: "EUR",
        idempotency_key: "k1",
      })
      await expect(changes(test, locks).apply(paid, cancelled)).resolves.toBe("unchanged")
      await expect(changes(withCapture([], new Date()), locks).apply(paid, cancelled)).resolves.toBe("unchanged")
      expect(locks).toEqual([])
      expect(test.workflowRuns).toEqual([])
    })
  })

  describe("an authorization the gateway voided while Medusa holds it", () => {
    const paid = { ...session, status: "authorized" }
    const voided = read("canceled", { orderId: "ORD1", authorizedMinor: "0" })

    async function voidWrite(test: TestContainer, key: string, patch: WritePatch) {
      await test.ledger.requestWrite({
        kind: "void",
        gateway_ref: "ORD1",
        amount_minor: "1000",
        currency: "EUR",
        idempotency_key: key,
      })
      return test.ledger.updateWrite(key, patch)
    }

    function withPayment(canceledAt: Date | null = null, captures: unknown[] = []) {
      const test = testContainer()
      test.payment.payments.push({
        id: "pay_1",
        payment_session_id: "payses_1",
        canceled_at: canceledAt,
        captures,
        refunds: [],
      })
      return test
    }

    it("cancels Medusa's payment under its lock, and the payment holds the void Medusa had given up on", async () => {
      const test = withPayment()
      const locks: string[] = []
      const lost = await voidWrite(test, "k1", { outcome: "executed" })
      await voidWrite(test, "k2", { outcome: "refused" })
      await expect(changes(test, locks).apply(paid, voided)).resolves.toBe("void_recorded")
      expect(test.payment.cancelled).toEqual(["pay_1"])
      expect(locks).toEqual(["pay_1"])
      expect(test.ledger.writes.find((row) => row.id === lost.id)?.claimed_by).toBe("pay_1")
      expect(test.ledger.writes.find((row) => row.idempotency_key === "k2")?.claimed_by).toBeNull()
    })

    it("cancels Medusa's payment of a void made in the gateway's back office", async () => {
      const test = withPayment()
      await expect(changes(test).apply(paid, voided)).resolves.toBe("void_recorded")
      expect(test.payment.cancelled).toEqual(["pay_1"])
    })

    it("does not cancel a payment Medusa cancelled already, but it still holds the void", async () => {
      const test = withPayment(new Date())
      const lost = await voidWrite(test, "k1", { outcome: "executed" })
      await expect(changes(test).apply(paid, voided)).resolves.toBe("unchanged")
      expect(test.payment.cancelled).toEqual([])
      expect(test.ledger.writes.find((row) => row.id === lost.id)?.claimed_by).toBe("pay_1")
    })

    it.each([
      ["on its way", "requested"],
      ["of unknown outcome", "unknown"],
    ] as const)("leaves a void %s to its sender", async (_label, outcome) => {
      const test = withPayment()
      await voidWrite(test, "k1", { outcome })
      await expect(changes(test).apply(paid, voided)).resolves.toBe("unchanged")
      expect(test.payment.cancelled).toEqual([])
    })

    it("leaves a payment with a capture in Medusa: a cancelled capture is the refunds' to record", async () => {
      const test = withPayment(null, [{ id: "capt_1", amount: 10 }])
      await expect(changes(test).apply(paid, voided)).resolves.toBe("unchanged")
      expect(test.payment.cancelled).toEqual([])
    })

    it("records nothing when Medusa has no payment for the session", async () => {
      const test = testContainer()
      await voidWrite(test, "k1", { outcome: "executed" })
      await expect(changes(test).apply(paid, voided)).resolves.toBe("unchanged")
      expect(test.ledger.writes[0].claimed_by).toBeNull()
    })
  })

  it("resolves nothing for a pending read", async () => {
    const nothing = {
      resolve(name: string) {
        throw new Error(`resolved ${name}`)
      },
    } as unknown as MedusaContainer
    const test = testContainer()
    const untouched = new MedusaChanges({
      container: nothing,
      payments: test.payment as never,
      ledger: test.ledger,
      lockPayment: (_id, job) => job(),
      lockCompletion: (_id, job) => job(),
      authorizeOrderSession: () => Promise.reject(new Error("no order session here")),
      isCartLocked: () => Promise.reject(new Error("no cart here")),
      finishBookkeeping: () => Promise.reject(new Error("no payment here")),
    })
    await expect(untouched.apply(session, read("pending"))).resolves.toBe("unchanged")
  })
})

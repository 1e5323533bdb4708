/**
 * When the sync finishes Medusa's bookkeeping of a row, and when it leaves the row to the
 * workflow that may still be finishing it. Medusa's payment and order modules are replaced by
 * records in memory (a boundary: the payment module's rows and the order's transactions as
 * Medusa's services answer them); the crash suite runs the same code on a real store.
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MoneyWrite } from "../../modules/nexi-ledger/types"
import { MedusaBookkeeping } from "../medusa-bookkeeping"
import { STALE_REQUEST_MS } from "../send-once"

const NOW = new Date("2026-11-28T12:00:00Z")
const LONG_AGO = new Date(NOW.getTime() - STALE_REQUEST_MS - 1_000)
const JUST_NOW = new Date(NOW.getTime() - 5_000)

function write(more: Partial<MoneyWrite>): MoneyWrite {
  return {
    kind: "capture",
    outcome: "executed",
    medusa_ref: "capt_1",
    claimed_by: "capt_1",
    created_at: LONG_AGO,
    updated_at: LONG_AGO,
    ...more,
  } as MoneyWrite
}

type Transaction = { id: string; reference_id: string; amount: number }

function store(writes: MoneyWrite[], { captureCreated = LONG_AGO, transactions = [] as Transaction[] } = {}) {
  const calls: string[] = []
  const added: Array<Record<string, unknown>> = []
  const deleted: string[] = []
  const payment = {
    id: "pay_1",
    amount: 19.99,
    currency_code: "eur",
    captured_at: null,
    payment_collection_id: "pay_col_1",
    captures: [{ id: "capt_1", amount: 19.99, created_at: captureCreated }],
    refunds: [],
  }
  const payments = {
    listPayments: async () => {
      calls.push("listPayments")
      return [payment]
    },
    maybeUpdatePaymentCollection_: async (id: string) => {
      calls.push(`recompute ${id}`)
    },
    updatePayment: async (update: { id: string; captured_at?: Date }) => {
      calls.push(`captured_at ${update.id}`)
    },
  }
  const orders = {
    listOrderTransactions: async () => [
      ...transactions.filter((transaction) => !deleted.includes(transaction.id)),
      ...added.map((transaction, index) => ({ ...transaction, id: `ordtrx_added_${index}` })),
    ],
    addOrderTransactions: async (transaction: Record<string, unknown>) => {
      added.push(transaction)
    },
    deleteOrderTransactions: async (ids: string[]) => {
      deleted.push(...ids)
    },
  }
  const query = { graph: async () => ({ data: [{ order_id: "order_1" }] }) }
  const container = {
    resolve: (name: string) => {
      if (name === ContainerRegistrationKeys.QUERY) return query
      if (name === Modules.ORDER) return orders
      throw new Error(`resolved ${name}`)
    },
  } as unknown as MedusaContainer
  const locks: string[] = []
  const bookkeeping = new MedusaBookkeeping({
    container,
    payments: payments as unknown as IPaymentModuleService,
    ledger: { writesOf: async () => writes },
    lockPayment: async (paymentId, job) => {
      locks.push(paymentId)
      return job()
    },
  })
  return { bookkeeping, calls, added, deleted, locks }
}

describe("MedusaBookkeeping", () => {
  it("finishes a capture whose write the gateway executed long ago and whose order has no transaction for it", async () => {
    const { bookkeeping, calls, added, locks } = store([write({})])
    await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(1)
    expect(locks).toEqual(["pay_1"])
    expect(calls).toEqual(["listPayments", "recompute pay_col_1", "captured_at pay_1"])
    expect(added).toEqual([
      {
        order_id: "order_1",
        amount: expect.anything(),
        currency_code: "eur",
        reference: "capture",
        reference_id: "capt_1",
      },
    ])
    expect(String(added[0].amount)).toBe("19.99")
    // A copy of the same read finds the transaction and changes nothing.
    await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(0)
    expect(added).toHaveLength(1)
  })

  it("reads nothing of Medusa while the write may still be in its workflow (young, or still requested)", async () => {
    for (const pending of [
      write({ created_at: JUST_NOW }),
      write({ outcome: "requested" }),
      write({ outcome: "unknown" }),
    ]) {
      const { bookkeeping, calls, added } = store([pending])
      await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(0)
      expect(calls).toEqual([])
      expect(added).toEqual([])
    }
  })

  it("leaves a young row that took an old write over: its own workflow is finishing it", async () => {
    const takenOver = write({ medusa_ref: "capt_gone", claimed_by: "capt_1" })
    const { bookkeeping, added, locks } = store([takenOver], { captureCreated: JUST_NOW })
    await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(0)
    expect(added).toEqual([])
    expect(locks).toEqual([])
  })

  it("leaves a row the order already has its transaction for, without taking the lock", async () => {
    const transactions = [{ id: "ordtrx_1", reference_id: "capt_1", amount: 19.99 }]
    const { bookkeeping, calls, locks } = store([write({})], { transactions })
    await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(0)
    expect(locks).toEqual([])
    expect(calls).toEqual(["listPayments"])
  })

  it("replaces a transaction of another amount, as a later capture or refund workflow of the payment gives a row that has none", async () => {
    // Medusa's workflow adds a transaction for every row lacking one, for its own call's amount.
    const transactions = [{ id: "ordtrx_later", reference_id: "capt_1", amount: 5 }]
    const { bookkeeping, added, deleted } = store([write({})], { transactions })
    await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(1)
    expect(deleted).toEqual(["ordtrx_later"])
    expect(added.map((transaction) => [transaction.reference_id, String(transaction.amount)])).toEqual([
      ["capt_1", "19.99"],
    ])
    await expect(bookkeeping.finish("payses_1", "ORDER1", NOW)).resolves.toBe(0)
  })
})

import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import {
  decimalAmount,
  OrderParamsSchema,
  orderCollectionBody,
  orderId,
  PaymentParamsSchema,
  PaymentSessionParamsSchema,
  parseInput,
} from "../validate-input"

const schema = z.strictObject({
  operation_id: z.string().regex(/^\d+$/, "must be digits"),
  reason: z.string().min(1, "must not be empty"),
  nested: z.strictObject({ count: z.number().int("must be a whole number") }).optional(),
})

function failure(value: unknown): MedusaError {
  try {
    parseInput(schema, value)
  } catch (error) {
    return error as MedusaError
  }
  throw new Error("expected a refusal")
}

describe("parseInput", () => {
  it("returns the parsed value", () => {
    expect(parseInput(schema, { operation_id: "12", reason: "typo" })).toEqual({ operation_id: "12", reason: "typo" })
  })

  it("throws INVALID_DATA naming every bad field by its path", () => {
    const error = failure({ operation_id: "x1", reason: "", nested: { count: 1.5 } })
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toBe(
      "operation_id: must be digits; reason: must not be empty; nested.count: must be a whole number",
    )
  })

  it("names unknown fields themselves, and treats a missing body as empty", () => {
    expect(failure({ operation_id: "1", reason: "r", amount: 5, nested: { count: 1, extra: true } }).message).toBe(
      "nested.extra: is not accepted here; amount: is not accepted here",
    )
    expect(failure(undefined).message).toMatch(/^operation_id: .*; reason: /)
  })
})

describe("the shared input rules", () => {
  it("names an id that is not Medusa's by what it must be", () => {
    expect(() => parseInput(OrderParamsSchema, { id: "pay_1" })).toThrow("id: must be an order id (order_...)")
    expect(() => parseInput(PaymentParamsSchema, { id: "order_1" })).toThrow("id: must be a payment id (pay_...)")
    expect(parseInput(OrderParamsSchema, { id: "order_01ABC" })).toEqual({ id: "order_01ABC" })
    expect(() => parseInput(PaymentSessionParamsSchema, { id: "pay_1" })).toThrow(
      "id: must be a payment session id (payses_...)",
    )
  })

  it("says what a missing or non-text id must be, not only that it is not a string", () => {
    expect(() => parseInput(z.object({ order_id: orderId }), {})).toThrow("order_id: must be an order id (order_...)")
    expect(() => parseInput(OrderParamsSchema, { id: ["order_1"] })).toThrow("id: must be an order id (order_...)")
  })

  it("takes an amount as exact decimal text only", () => {
    const schema = z.strictObject({ amount: decimalAmount })
    expect(parseInput(schema, { amount: "12.50" })).toEqual({ amount: "12.50" })
    expect(() => parseInput(schema, { amount: "-1" })).toThrow('amount: must be a positive decimal number like "12.50"')
    expect(() => parseInput(schema, { amount: 12.5 })).toThrow(
      /^amount: must be a decimal number in the order's currency/,
    )
  })

  it("takes exactly one of order_id and draft_order_id for a collection, and says which", () => {
    const schema = orderCollectionBody({ note: z.string().optional() })
    expect(parseInput(schema, { draft_order_id: "order_1", note: "n" })).toEqual({
      draft_order_id: "order_1",
      note: "n",
      field: "draft_order_id",
      orderId: "order_1",
    })
    expect(parseInput(schema, { order_id: "order_2" })).toMatchObject({ field: "order_id", orderId: "order_2" })
    const both = "order_id: give exactly one of draft_order_id and order_id"
    expect(() => parseInput(schema, { order_id: "order_1", draft_order_id: "order_2" })).toThrow(both)
    expect(() => parseInput(schema, {})).toThrow(both)
    expect(() => parseInput(schema, { order_id: "pay_1" })).toThrow("order_id: must be an order id (order_...)")
  })
})

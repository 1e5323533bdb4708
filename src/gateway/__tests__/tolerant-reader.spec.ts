import { OperationSchema, OrderDetailsSchema, PaymentMethodListSchema } from "../schemas"
import { listUnrecognized, warnUnrecognized } from "../tolerant-reader"

const order = { orderStatus: { order: { orderId: "A1", amount: "100", currency: "EUR" } } }

describe("gateway answers read tolerantly", () => {
  it.each([
    ["a new channel", { channel: "MOTO_PHONE" }],
    ["a new payment method type", { paymentMethod: "WALLET" }],
    ["a warning without code", { warnings: [{ description: "3-D Secure warning" }] }],
    ["a warning without description", { warnings: [{ code: "TRA001" }] }],
  ])("reads an operation with %s", (_, operation) => {
    expect(OperationSchema.safeParse(operation).success).toBe(true)
  })

  it("reads a missing warning member as empty text", () => {
    expect(OperationSchema.parse({ warnings: [{ code: "TRA001" }] }).warnings).toEqual([
      { code: "TRA001", description: "" },
    ])
  })

  it("reads a new method type in the payment methods and a new last operation type", () => {
    expect(
      PaymentMethodListSchema.safeParse({ paymentMethods: [{ circuit: "X", methodType: "WALLET" }] }).success,
    ).toBe(true)
    const details = { ...order, orderStatus: { ...order.orderStatus, lastOperationType: "PREAUTH_INCREMENT" } }
    expect(OrderDetailsSchema.safeParse(details).success).toBe(true)
  })

  it("sets an unknown operation type aside: the operation is no payment, capture or refund", () => {
    const read = OperationSchema.parse({ operationType: "INCREMENT", operationResult: "EXECUTED" })
    expect(read.operationType).toBeUndefined()
    expect(read.unrecognized).toEqual({ operationType: "INCREMENT" })
  })

  it("sets an unknown operationResult aside, so it never passes for a known one", () => {
    const read = OperationSchema.parse({ operationType: "CAPTURE", operationResult: "PARTIALLY_AUTHORIZED" })
    expect(read.operationResult).toBeUndefined()
    expect(read.unrecognized).toEqual({ operationResult: "PARTIALLY_AUTHORIZED" })
  })

  it("names each set-aside value with its path, shortened, in one warning", () => {
    const details = OrderDetailsSchema.parse({
      ...order,
      operations: [{ operationType: "INCREMENT" }, { operationType: "X".repeat(100) }],
    })
    expect(listUnrecognized(details)).toEqual([
      'operations[0].operationType="INCREMENT"',
      `operations[1].operationType="${"X".repeat(40)}"`,
    ])
    const warn = jest.fn()
    warnUnrecognized({ debug() {}, info() {}, warn, error() {} }, "Nexi gateway GET /orders/{orderId}", details)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0][0]).toMatch(
      /GET \/orders\/\{orderId\} answered values this plugin does not know \(operations\[0\]/,
    )
  })
})

import type { OrderDetails } from "../../gateway/schemas"
import { cardPaymentView, oldestFirst, refundedMinor } from "../card-payment-view"
import { capturedCancelledRecapturedRefunded, declined, motoAuthorizedJpy } from "./gateway-records"

const identity = { payment_id: "pay_1", provider_id: "pp_nexi_nexi" }

describe("cardPaymentView", () => {
  it("shows amounts as the gateway reports them, in exact major units", () => {
    const view = cardPaymentView(identity, capturedCancelledRecapturedRefunded())
    expect(view).toMatchObject({
      kind: "card",
      payment_id: "pay_1",
      provider_id: "pp_nexi_nexi",
      gateway_order_id: "TESTMWPPU0HS",
      authorized: { amount: "39.98", currency: "EUR" },
      captured: { amount: "39.98", currency: "EUR" },
      refunded: { amount: "10.00", currency: "EUR" },
      last_operation_type: "REFUND",
    })
  })

  it("names the card and its 3-D Secure outcome from the operation that paid", () => {
    const view = cardPaymentView(identity, capturedCancelledRecapturedRefunded())
    expect(view).toMatchObject({ circuit: "VISA", masked_card: "***4549", three_ds: "CHALLENGE" })
  })

  it("lists the timeline oldest first, with a cancelled capture no longer cancellable", () => {
    const { operations } = cardPaymentView(identity, capturedCancelledRecapturedRefunded())
    expect(operations.map((operation) => [operation.type, operation.result, operation.amount?.amount, operation.cancellable])).toEqual([
      ["AUTHORIZATION", "THREEDS_VALIDATED", "39.98", false],
      ["AUTHORIZATION", "AUTHORIZED", "39.98", false],
      ["CAPTURE", "EXECUTED", "25.50", false],
      ["CANCEL", "EXECUTED", "25.50", false],
      ["CAPTURE", "EXECUTED", "39.98", true],
      ["REFUND", "REFUNDED", "10.00", false],
    ])
    const cancel = operations.find((operation) => operation.type === "CANCEL")!
    expect(cancel.cancelled_operation_id).toBe("908387210732492")
    // A refund points at its capture too, but it does not undo it: not shown as such.
    expect(operations.find((operation) => operation.type === "REFUND")!.cancelled_operation_id).toBeNull()
    expect(operations[2]).toMatchObject({ channel: "BACKOFFICE", time: "2026-11-21T01:14:50.127Z", warnings: [] })
  })

  it("orders operations the gateway lists out of order, keeping its order for equal times", () => {
    const record = capturedCancelledRecapturedRefunded()
    record.operations.reverse()
    const ids = oldestFirst(record.operations).map((operation) => operation.operationId)
    // The two authorizations share a millisecond: reversed input keeps them reversed.
    expect(ids).toEqual(["678105030543057", "867916744301998", "908387210732492", "427882645072667", "198378169041436", "265008783561666"])
  })

  it("shows a MOTO payment in yen without decimals, with its warning and no 3-D Secure", () => {
    const view = cardPaymentView(identity, motoAuthorizedJpy())
    expect(view).toMatchObject({
      circuit: "MC",
      masked_card: "***2903",
      three_ds: null,
      authorized: { amount: "500", currency: "JPY" },
      captured: { amount: "0", currency: "JPY" },
      refunded: { amount: "0", currency: "JPY" },
    })
    expect(view.operations[0].warnings).toEqual([
      { code: "TRA001", description: "3-D Secure not performed: card data entered by the merchant (MOTO)" },
    ])
  })

  it("still names the card of a declined attempt, with nothing authorized", () => {
    const view = cardPaymentView(identity, declined())
    expect(view).toMatchObject({ masked_card: "***8729", circuit: "MC", three_ds: "FRICTIONLESS", authorized: { amount: "0.00" } })
    expect(view.operations.every((operation) => !operation.cancellable)).toBe(true)
  })

  it("shows a hosted order nobody paid yet with no card and no operations", () => {
    const record: OrderDetails = {
      orderStatus: { order: { orderId: "OPEN1", amount: "1234", currency: "KWD" } },
      operations: [],
      paymentLinks: [],
    }
    const view = cardPaymentView(identity, record)
    expect(view).toMatchObject({ circuit: null, masked_card: null, three_ds: null, last_operation_type: null, operations: [] })
    expect(view.authorized).toEqual({ amount: "0.000", currency: "KWD" })
  })
})

describe("refundedMinor", () => {
  const refund = (operationId: string, operationResult: "REFUNDED" | "PENDING" | "FAILED" | "EXECUTED", operationAmount: string) => ({
    operationId,
    operationType: "REFUND" as const,
    operationResult,
    operationAmount,
  })

  it("adds executed refunds exactly and leaves out pending and failed ones", () => {
    expect(
      refundedMinor([
        refund("r1", "REFUNDED", "1025"),
        refund("r2", "EXECUTED", "1525"),
        refund("r3", "PENDING", "100"),
        refund("r4", "FAILED", "7"),
      ]),
    ).toBe("2550")
  })

  it("leaves out a refund an executed CANCEL rolled back, not one a failed CANCEL tried to", () => {
    const operations = [
      refund("r1", "REFUNDED", "1000"),
      refund("r2", "REFUNDED", "250"),
      { operationId: "c1", operationType: "CANCEL" as const, operationResult: "EXECUTED" as const, cancelledOperationId: "r1" },
      { operationId: "c2", operationType: "CANCEL" as const, operationResult: "FAILED" as const, cancelledOperationId: "r2" },
    ]
    expect(refundedMinor(operations)).toBe("250")
  })

  it("stays exact beyond what a double holds", () => {
    expect(refundedMinor([refund("r1", "REFUNDED", "9007199254740993"), refund("r2", "REFUNDED", "1")])).toBe("9007199254740994")
  })
})

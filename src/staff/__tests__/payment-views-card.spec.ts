import { capturedCancelledRecapturedRefunded, declined, motoAuthorizedJpy } from "../../core/__tests__/gateway-records"
import type { Operation, OperationResult, OrderDetails } from "../../gateway/schemas"
import { cardPaymentView } from "../payment-views"

const identity = { payment_id: "pay_1", provider_id: "pp_nexi_nexi" }
const eur = (amount: string) => ({ amount, currency: "EUR" })

describe("cardPaymentView", () => {
  it("shows amounts as the gateway reports them, in exact major units", () => {
    const view = cardPaymentView(identity, capturedCancelledRecapturedRefunded())
    expect(view).toMatchObject({
      kind: "card",
      payment_id: "pay_1",
      provider_id: "pp_nexi_nexi",
      provider_name: "Nexi card",
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

  it("lists the timeline oldest first; neither the cancelled capture nor the refunded one is cancellable (PS0027)", () => {
    const { operations } = cardPaymentView(identity, capturedCancelledRecapturedRefunded())
    expect(
      operations.map((operation) => [
        operation.type,
        operation.result,
        operation.amount?.amount,
        operation.cancellable,
      ]),
    ).toEqual([
      ["AUTHORIZATION", "THREEDS_VALIDATED", "39.98", false],
      ["AUTHORIZATION", "AUTHORIZED", "39.98", false],
      ["CAPTURE", "EXECUTED", "25.50", false],
      ["CANCEL", "EXECUTED", "25.50", false],
      ["CAPTURE", "EXECUTED", "39.98", false],
      ["REFUND", "REFUNDED", "10.00", false],
    ])
    const cancel = operations.find((operation) => operation.type === "CANCEL")!
    expect(cancel.cancelled_operation_id).toBe("908387210732492")
    // A refund points at its capture too, but it does not undo it: not shown as such.
    expect(operations.find((operation) => operation.type === "REFUND")!.cancelled_operation_id).toBeNull()
    expect(operations[2]).toMatchObject({ channel: "BACKOFFICE", time: "2026-11-21T01:14:50.127Z", warnings: [] })
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
    expect(view).toMatchObject({
      masked_card: "***8729",
      circuit: "MC",
      three_ds: "FRICTIONLESS",
      authorized: { amount: "0.00" },
    })
    expect(view.operations.every((operation) => !operation.cancellable)).toBe(true)
  })

  it("shows a hosted order nobody paid yet with no card and no operations", () => {
    const record: OrderDetails = {
      orderStatus: { order: { orderId: "OPEN1", amount: "1234", currency: "KWD" } },
      operations: [],
      paymentLinks: [],
    }
    const view = cardPaymentView(identity, record)
    expect(view).toMatchObject({
      circuit: null,
      masked_card: null,
      three_ds: null,
      last_operation_type: null,
      operations: [],
    })
    expect(view.authorized).toEqual({ amount: "0.000", currency: "KWD" })
  })
})

describe("cardPaymentView: what staff may do now", () => {
  /** The recorded history cut after its first `count` operations (the gateway's record at that moment). */
  function historyUpTo(count: number, extra: Operation[] = []) {
    const record = capturedCancelledRecapturedRefunded()
    record.operations = [...record.operations.slice(0, count), ...extra]
    return cardPaymentView(identity, record)
  }
  const cancellableIds = (view: ReturnType<typeof cardPaymentView>) =>
    view.operations.filter((operation) => operation.cancellable).map((operation) => operation.operation_id)
  const refund = (operationId: string, operationResult: OperationResult, operationAmount: string): Operation => ({
    operationId,
    operationType: "REFUND",
    operationResult,
    operationAmount,
    operationTime: "2026-11-21T01:15:00.000Z",
    cancelledOperationId: "198378169041436",
  })

  it("an authorized payment: capture the whole authorization; nothing to refund or cancel", () => {
    const view = historyUpTo(2)
    expect(view).toMatchObject({ capturable: eur("39.98"), refundable: null })
    expect(cancellableIds(view)).toEqual([])
    expect(cardPaymentView(identity, motoAuthorizedJpy())).toMatchObject({
      capturable: { amount: "500", currency: "JPY" },
      refundable: null,
    })
  })

  it("a partial capture: no second capture (one per authorization), refund what it took, cancel it", () => {
    const view = historyUpTo(3)
    expect(view).toMatchObject({ capturable: null, refundable: eur("25.50") })
    expect(cancellableIds(view)).toEqual(["908387210732492"])
  })

  it("a cancelled capture: the whole authorization can be captured again; nothing to refund or cancel", () => {
    const view = historyUpTo(4)
    expect(view).toMatchObject({ capturable: eur("39.98"), refundable: null })
    expect(cancellableIds(view)).toEqual([])
  })

  it("a capture with a refund: refund the rest, never cancel it (the gateway answers PS0027)", () => {
    const view = historyUpTo(6)
    expect(view).toMatchObject({ capturable: null, refundable: eur("29.98") })
    expect(cancellableIds(view)).toEqual([])
  })

  it("a refund still pending at the gateway is spoken for, and already blocks the cancel", () => {
    const view = historyUpTo(5, [refund("r-pending", "PENDING", "1500")])
    expect(view).toMatchObject({ capturable: null, refundable: eur("24.98"), refunded: eur("0.00") })
    expect(cancellableIds(view)).toEqual([])
  })

  it("a failed refund moved nothing: refund all of it, and the capture can still be cancelled", () => {
    const view = historyUpTo(5, [refund("r-failed", "FAILED", "1500")])
    expect(view).toMatchObject({ refundable: eur("39.98") })
    expect(cancellableIds(view)).toEqual(["198378169041436"])
  })

  it("a fully refunded capture: nothing left to do", () => {
    const view = historyUpTo(5, [refund("r-all", "REFUNDED", "3998")])
    expect(view).toMatchObject({ capturable: null, refundable: null })
    expect(cancellableIds(view)).toEqual([])
  })

  it("a capture still pending at the gateway: no second capture", () => {
    const pending: Operation = {
      operationId: "c-pending",
      operationType: "CAPTURE",
      operationResult: "PENDING",
      operationAmount: "1000",
    }
    expect(historyUpTo(2, [pending])).toMatchObject({ capturable: null, refundable: null })
  })

  it("a voided authorization and a declined payment: nothing at all", () => {
    const voided: Operation = {
      operationId: "v1",
      operationType: "VOID",
      operationResult: "VOIDED",
      operationAmount: "3998",
      cancelledOperationId: "678105030543057",
    }
    const view = historyUpTo(2, [voided])
    expect(view).toMatchObject({ capturable: null, refundable: null })
    expect(cardPaymentView(identity, declined())).toMatchObject({ capturable: null, refundable: null })
  })
})

describe("cardPaymentView: timeline notes", () => {
  it("says which capture a cancel rolled back, on both rows, and nothing on the others", () => {
    const notes = cardPaymentView(identity, capturedCancelledRecapturedRefunded()).operations.map((operation) => [
      operation.operation_id,
      operation.note,
    ])
    expect(notes).toEqual([
      ["867916744301998", null],
      ["678105030543057", null],
      ["908387210732492", "Cancelled by 427882645072667"],
      ["427882645072667", "Cancels 908387210732492"],
      ["198378169041436", null],
      // A refund names its capture too, but it does not undo it.
      ["265008783561666", null],
    ])
  })

  it("says which authorization a void released", () => {
    const record = motoAuthorizedJpy()
    record.operations.push({
      operationId: "v1",
      operationType: "VOID",
      operationResult: "VOIDED",
      cancelledOperationId: "283050910406843",
    })
    const notes = cardPaymentView(identity, record).operations.map((operation) => operation.note)
    expect(notes).toEqual(["Voided by v1", "Voids 283050910406843"])
  })

  it("does not mark a capture undone by a cancel that failed, which stays cancellable", () => {
    const record = capturedCancelledRecapturedRefunded()
    record.operations = record.operations.slice(0, 4)
    record.operations[3] = { ...record.operations[3], operationResult: "FAILED" }
    const [, , capture, cancel] = cardPaymentView(identity, record).operations
    expect(cancel.note).toBe("Cancels 908387210732492")
    expect(capture).toMatchObject({ note: null, cancellable: true })
  })
})

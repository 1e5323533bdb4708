/**
 * The read model's own rules, one by one: the order of operations, what undid what, the money
 * and what remains of it, and the parts other readers take from it (card, 3-D Secure, refunds,
 * captures, payment links). Whole recorded histories are in card-order-histories.spec.ts.
 */
import fc from "fast-check"
import type { Operation, OperationResult, OperationType, OrderDetails } from "../../gateway/schemas"
import { inGatewayOrder, readCardOrder } from "../card/card-order"
import { capturedCancelledRecapturedRefunded } from "./gateway-records"
import { op } from "./operation-builder"

function order(operations: Operation[], fields: Partial<OrderDetails> = {}): OrderDetails {
  return {
    orderStatus: { order: { orderId: "ORDER1", amount: "1999", currency: "EUR" } },
    operations,
    paymentLinks: [],
    ...fields,
  }
}

const ids = (operations: readonly Operation[]) => operations.map((operation) => operation.operationId)

describe("readCardOrder: one order of operations", () => {
  it("orders operations the gateway lists out of order, keeping its order for equal times", () => {
    const record = capturedCancelledRecapturedRefunded()
    record.operations.reverse()
    // The two authorizations share a millisecond: reversed input keeps them reversed.
    expect(ids(inGatewayOrder(record.operations))).toEqual([
      "678105030543057",
      "867916744301998",
      "908387210732492",
      "427882645072667",
      "198378169041436",
      "265008783561666",
    ])
    expect(readCardOrder(record).operations.map(({ operation }) => operation.operationId)).toEqual(
      ids(inGatewayOrder(record.operations)),
    )
  })

  it("with every time readable and distinct, gives the same order whatever the order of the list", () => {
    const seconds = fc.uniqueArray(fc.integer({ min: 0, max: 3600 }), { minLength: 0, maxLength: 12 })
    fc.assert(
      fc.property(seconds, fc.func(fc.integer()), (times, shuffleKey) => {
        const operations = times.map((second, index) => op(`op${index}`, "REFUND", "REFUNDED", second))
        const shuffled = [...operations].sort((a, b) => shuffleKey(a.operationId) - shuffleKey(b.operationId))
        const expected = [...operations].sort((a, b) => Date.parse(a.operationTime!) - Date.parse(b.operationTime!))
        expect(ids(inGatewayOrder(shuffled))).toEqual(ids(expected))
      }),
    )
  })

  it("keeps an untimed operation in its slot and puts the timed ones in time order around it", () => {
    const slots = fc.array(fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }), { maxLength: 12 })
    fc.assert(
      fc.property(slots, (times) => {
        const operations = times.map((second, index) => op(`op${index}`, "REFUND", "REFUNDED", second))
        const ordered = inGatewayOrder(operations)
        expect([...ids(ordered)].sort()).toEqual([...ids(operations)].sort())
        ordered.forEach((operation, index) => {
          if (operations[index].operationTime === undefined) expect(operation).toBe(operations[index])
        })
        const timed = ordered
          .filter((operation) => operation.operationTime !== undefined)
          .map((operation) => Date.parse(operation.operationTime!))
        expect(timed).toEqual([...timed].sort((a, b) => a - b))
      }),
    )
  })
})

describe("readCardOrder: what undid what", () => {
  const auth = op("auth", "AUTHORIZATION", "AUTHORIZED", 1)
  const capture = op("cap", "CAPTURE", "EXECUTED", 2)
  const undoneBy = (details: OrderDetails, id: string) =>
    readCardOrder(details).operations.find(({ operation }) => operation.operationId === id)?.undoneBy

  it.each(["EXECUTED", "VOIDED"] as const)(
    "a CANCEL with result %s rolls the capture back and gives the authorization back",
    (result) => {
      const details = order([auth, capture, op("cancel", "CANCEL", result, 3, { cancelledOperationId: "cap" })])
      expect(undoneBy(details, "cap")).toEqual({ operationId: "cancel", kind: "cancel" })
      expect(readCardOrder(details)).toMatchObject({
        status: "authorized",
        capturedMinor: "0",
        capturableMinor: "1999",
        refundableMinor: "0",
      })
      expect(readCardOrder(details).captureOperationId).toBeUndefined()
    },
  )

  it.each(["PENDING", "FAILED", "DECLINED"] as const)("a CANCEL with result %s undid nothing", (result) => {
    const details = order([auth, capture, op("cancel", "CANCEL", result, 3, { cancelledOperationId: "cap" })])
    expect(undoneBy(details, "cap")).toBeUndefined()
    expect(readCardOrder(details)).toMatchObject({
      status: "captured",
      captureOperationId: "cap",
      capturedMinor: "1999",
    })
  })

  it("a capture whose cancel is under way cannot be cancelled again; one whose cancel failed can", () => {
    const pending = order([auth, capture, op("cancel", "CANCEL", "PENDING", 3, { cancelledOperationId: "cap" })])
    expect(readCardOrder(pending).cancellableCaptureId).toBeUndefined()
    const failed = order([auth, capture, op("cancel", "CANCEL", "FAILED", 3, { cancelledOperationId: "cap" })])
    expect(readCardOrder(failed).cancellableCaptureId).toBe("cap")
  })

  it.each([
    ["VOID", "VOIDED", "auth"],
    ["VOID", "EXECUTED", "auth"],
    ["VOID", "VOIDED", ""],
    ["REFUND", "VOIDED", "auth"],
    ["REFUND", "VOIDED", ""],
  ] as const)("a %s with result %s naming %j voids the authorization", (type, result, named) => {
    const details = order([auth, op("void", type, result, 2, { cancelledOperationId: named })])
    expect(undoneBy(details, "auth")).toEqual({ operationId: "void", kind: "void" })
    expect(readCardOrder(details)).toMatchObject({
      status: "canceled",
      authorizedMinor: "0",
      capturableMinor: "0",
      refunds: [],
    })
  })

  it("a REFUND that refunded names its capture but does not undo it", () => {
    const details = order([
      auth,
      capture,
      op("ref", "REFUND", "REFUNDED", 3, { operationAmount: "500", cancelledOperationId: "cap" }),
    ])
    expect(undoneBy(details, "cap")).toBeUndefined()
    expect(readCardOrder(details)).toMatchObject({
      status: "captured",
      capturedMinor: "1999",
      refundedMinor: "500",
      refundableMinor: "1499",
    })
  })

  it("a CANCEL that rolled a refund back gives its money back to what can be refunded", () => {
    const details = order([
      capture,
      op("ref", "REFUND", "REFUNDED", 3, { operationAmount: "500", cancelledOperationId: "cap" }),
      op("cancel", "CANCEL", "EXECUTED", 4, { cancelledOperationId: "ref" }),
    ])
    expect(readCardOrder(details)).toMatchObject({ refundedMinor: "0", refundableMinor: "1999", refunds: [] })
  })
})

describe("readCardOrder: money", () => {
  it("EXPLICIT: a partial capture leaves nothing more to capture (one per authorization) and refunds only what it took", () => {
    const details = order([
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("cap", "CAPTURE", "EXECUTED", 2, { operationAmount: "1200" }),
    ])
    expect(readCardOrder(details)).toMatchObject({
      status: "captured",
      paymentOperationId: "auth",
      authorizedMinor: "1999",
      capturedMinor: "1200",
      capturableMinor: "0",
      refundableMinor: "1200",
      cancellableCaptureId: "cap",
      captures: [{ operationId: "cap", amountMinor: "1200" }],
    })
  })

  it("IMPLICIT: the capture is the payment; partial refunds, one settled and one pending, leave the rest to refund", () => {
    const details = order([
      op("cap", "CAPTURE", "EXECUTED", 1),
      op("r1", "REFUND", "REFUNDED", 2, { operationAmount: "500", cancelledOperationId: "cap" }),
      op("r2", "REFUND", "PENDING", 3, { operationAmount: "300", cancelledOperationId: "cap" }),
    ])
    expect(readCardOrder(details)).toMatchObject({
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      refundedMinor: "500",
      pendingRefundMinor: "300",
      refundableMinor: "1199",
      cancellableCaptureId: undefined,
      refunds: [
        { operationId: "r1", amountMinor: "500", result: "REFUNDED", settled: true },
        { operationId: "r2", amountMinor: "300", result: "PENDING", settled: false },
      ],
    })
  })

  it("fix: a cancelled IMPLICIT capture gives its authorization back: authorized, never pending", () => {
    const details = order([
      op("cap", "CAPTURE", "EXECUTED", 1),
      op("cancel", "CANCEL", "EXECUTED", 2, { cancelledOperationId: "cap" }),
    ])
    expect(readCardOrder(details)).toMatchObject({
      status: "authorized",
      paymentOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "0",
      capturableMinor: "1999",
      captures: [{ operationId: "cap", amountMinor: "1999", undoneBy: "cancel" }],
    })
  })

  it("a cancelled IMPLICIT capture whose authorization was then voided holds nothing", () => {
    const details = order([
      op("cap", "CAPTURE", "EXECUTED", 1),
      op("cancel", "CANCEL", "EXECUTED", 2, { cancelledOperationId: "cap" }),
      op("void", "VOID", "VOIDED", 3, { cancelledOperationId: "cap" }),
    ])
    expect(readCardOrder(details)).toMatchObject({
      status: "canceled",
      authorizedMinor: "0",
      capturedMinor: "0",
      capturableMinor: "0",
      refundableMinor: "0",
    })
  })

  it("captured, cancelled, captured again: only the live capture counts", () => {
    const details = capturedCancelledRecapturedRefunded()
    details.operations.splice(5)
    expect(readCardOrder(details)).toMatchObject({
      status: "captured",
      captureOperationId: "198378169041436",
      cancellableCaptureId: "198378169041436",
      authorizedMinor: "3998",
      capturedMinor: "3998",
      capturableMinor: "0",
      refundableMinor: "3998",
      captures: [
        { operationId: "908387210732492", amountMinor: "2550", undoneBy: "427882645072667" },
        { operationId: "198378169041436", amountMinor: "3998" },
      ],
    })
  })

  it("a capture still pending at the gateway leaves nothing to capture", () => {
    const details = order([op("auth", "AUTHORIZATION", "AUTHORIZED", 1), op("cap", "CAPTURE", "PENDING", 2)])
    expect(readCardOrder(details)).toMatchObject({ status: "authorized", capturableMinor: "0" })
  })

  it.each([
    ["DECLINED", /declined/],
    ["THREEDS_FAILED", /3-D Secure/],
  ] as const)("an attempt %s after 3-D Secure holds nothing, and still names the card", (result, reason) => {
    const details = order([
      op("3ds", "AUTHORIZATION", "THREEDS_VALIDATED", 1, {
        paymentCircuit: "MC",
        paymentInstrumentInfo: "***8729",
        additionalData: { threeDS: "FRICTIONLESS" },
      }),
      op("auth", "AUTHORIZATION", result, 2, { paymentCircuit: "MC", paymentInstrumentInfo: "***8729" }),
    ])
    const read = readCardOrder(details)
    expect(read).toMatchObject({
      status: "error",
      authorizedMinor: "0",
      capturableMinor: "0",
      refundableMinor: "0",
      threeDS: "FRICTIONLESS",
    })
    expect(read.reason).toMatch(reason)
    expect(read.paymentInstrument).toEqual({ circuit: "MC", maskedPan: "***8729" })
    expect(read.paymentOperationId).toBeUndefined()
  })

  it("reads the amounts from the operations, not from orderStatus", () => {
    const details = order([op("auth", "AUTHORIZATION", "AUTHORIZED", 1), op("void", "VOID", "VOIDED", 2)], {})
    details.orderStatus.authorizedAmount = "1999"
    details.orderStatus.capturedAmount = "1999"
    expect(readCardOrder(details)).toMatchObject({ authorizedMinor: "0", capturedMinor: "0" })
  })

  it("a card verification (an EXECUTED AUTHORIZATION) moves no money and names the card it confirmed", () => {
    const details = order([
      op("verify", "AUTHORIZATION", "EXECUTED", 1, {
        operationAmount: "0",
        paymentCircuit: "VISA",
        paymentInstrumentInfo: "***7289",
      }),
    ])
    expect(readCardOrder(details)).toMatchObject({
      status: "pending",
      authorizedMinor: "0",
      verification: { operationId: "verify", instrument: { circuit: "VISA", maskedPan: "***7289" } },
    })
    expect(readCardOrder(order([op("auth", "AUTHORIZATION", "AUTHORIZED", 1)])).verification).toBeUndefined()
  })

  it("passes the order's payment links on", () => {
    const link = {
      linkId: "L1",
      amount: "1999",
      expirationDate: "2026-12-01T00:00:00Z",
      link: "https://pay.example/L1",
      paidByOperationId: "auth",
    }
    expect(
      readCardOrder(order([op("auth", "AUTHORIZATION", "AUTHORIZED", 1)], { paymentLinks: [link] })).paymentLinks,
    ).toEqual([link])
    expect(readCardOrder(order([])).paymentLinks).toEqual([])
  })
})

describe("readCardOrder: refunded (formerly the admin view's own sum)", () => {
  const refund = (
    operationId: string,
    operationResult: "REFUNDED" | "PENDING" | "FAILED" | "EXECUTED",
    operationAmount: string,
  ): Operation => ({
    operationId,
    operationType: "REFUND",
    operationResult,
    operationAmount,
  })
  const refundedMinor = (operations: Operation[]) => readCardOrder(order(operations)).refundedMinor

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
    const operations: Operation[] = [
      refund("r1", "REFUNDED", "1000"),
      refund("r2", "REFUNDED", "250"),
      { operationId: "c1", operationType: "CANCEL", operationResult: "EXECUTED", cancelledOperationId: "r1" },
      { operationId: "c2", operationType: "CANCEL", operationResult: "FAILED", cancelledOperationId: "r2" },
    ]
    expect(refundedMinor(operations)).toBe("250")
  })

  it("stays exact beyond what a double holds", () => {
    expect(refundedMinor([refund("r1", "REFUNDED", "9007199254740993"), refund("r2", "REFUNDED", "1")])).toBe(
      "9007199254740994",
    )
  })
})

describe("readCardOrder: bounds over any history", () => {
  const types = fc.constantFrom<OperationType>("AUTHORIZATION", "CAPTURE", "VOID", "REFUND", "CANCEL")
  const results = fc.constantFrom<OperationResult>(
    "AUTHORIZED",
    "EXECUTED",
    "PENDING",
    "DECLINED",
    "FAILED",
    "VOIDED",
    "REFUNDED",
    "THREEDS_VALIDATED",
  )
  const history = fc
    .array(
      fc.record({
        type: types,
        result: results,
        amount: fc.bigInt({ min: 0n, max: 10n ** 20n }),
        second: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        target: fc.option(fc.nat({ max: 11 }), { nil: undefined }),
      }),
      { maxLength: 12 },
    )
    .map((rows) =>
      rows.map((row, index) =>
        op(`op${index}`, row.type, row.result, row.second, {
          operationAmount: row.amount.toString(),
          cancelledOperationId: row.target === undefined ? "" : `op${row.target}`,
        }),
      ),
    )

  it("never goes negative, and never leaves more to capture or refund than was authorized or captured", () => {
    fc.assert(
      fc.property(history, (operations) => {
        const read = readCardOrder(order(operations))
        const [authorized, captured, refunded, pending, capturable, refundable] = [
          read.authorizedMinor,
          read.capturedMinor,
          read.refundedMinor,
          read.pendingRefundMinor,
          read.capturableMinor,
          read.refundableMinor,
        ].map(BigInt)
        for (const amount of [authorized, captured, refunded, pending, capturable, refundable])
          expect(amount >= 0n).toBe(true)
        expect(captured <= authorized).toBe(true)
        expect(capturable <= authorized - captured).toBe(true)
        expect(refundable <= captured).toBe(true)
        expect(refundable + refunded + pending <= captured || refundable === 0n).toBe(true)
        if (read.status !== "captured") expect(read.captureOperationId).toBeUndefined()
      }),
    )
  })
})

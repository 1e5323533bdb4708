/**
 * Whole gateway histories (GET /orders/{orderId}) as the simulator and the real gateway
 * record them, read end to end. Rows named "fix: ..." are histories that were once misread.
 */
import type { Operation, OrderDetails, OrderStatus } from "../../gateway/schemas"
import { readCardOrder } from "../card/card-order"
import type { PaymentStatus } from "../session-data"
import { op } from "./operation-builder"

interface History {
  name: string
  amounts?: Pick<OrderStatus, "authorizedAmount" | "capturedAmount">
  operations: Operation[]
  expected: {
    status: PaymentStatus
    reason?: RegExp
    paymentOperationId?: string
    captureOperationId?: string
    authorizedMinor: string
    capturedMinor: string
    refundedMinor: string
    pendingRefundMinor: string
    refundIds?: string[]
  }
}

const HISTORIES: History[] = [
  // Common histories.
  {
    name: "no operation yet: pending",
    operations: [],
    expected: {
      status: "pending",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "EXPLICIT authorized",
    amounts: { authorizedAmount: "1999", capturedAmount: "0" },
    operations: [op("auth", "AUTHORIZATION", "AUTHORIZED", 1)],
    expected: {
      status: "authorized",
      paymentOperationId: "auth",
      authorizedMinor: "1999",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "authorized, then captured",
    amounts: { authorizedAmount: "1999", capturedAmount: "1999" },
    operations: [op("auth", "AUTHORIZATION", "AUTHORIZED", 1), op("cap", "CAPTURE", "EXECUTED", 2)],
    expected: {
      status: "captured",
      paymentOperationId: "auth",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "IMPLICIT capture, authorizedAmount reported",
    amounts: { authorizedAmount: "1999", capturedAmount: "1999" },
    operations: [op("cap", "CAPTURE", "EXECUTED", 1)],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "declined by the issuer",
    operations: [op("auth", "AUTHORIZATION", "DECLINED", 1)],
    expected: {
      status: "error",
      reason: /declined/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "3-D Secure failed",
    operations: [op("auth", "AUTHORIZATION", "THREEDS_FAILED", 1)],
    expected: {
      status: "error",
      reason: /3-D Secure/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "cancelled by the shopper on the hosted page",
    operations: [op("auth", "AUTHORIZATION", "CANCELED", 1)],
    expected: {
      status: "canceled",
      reason: /shopper cancelled/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "3-D Secure passed, authorization PENDING",
    operations: [op("3ds", "AUTHORIZATION", "THREEDS_VALIDATED", 1), op("auth", "AUTHORIZATION", "PENDING", 2)],
    expected: {
      status: "pending",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "captured, then partially refunded",
    amounts: { authorizedAmount: "1999", capturedAmount: "1999" },
    operations: [
      op("cap", "CAPTURE", "EXECUTED", 1),
      op("ref", "REFUND", "REFUNDED", 2, { operationAmount: "500", cancelledOperationId: "cap" }),
    ],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "500",
      pendingRefundMinor: "0",
      refundIds: ["ref"],
    },
  },
  {
    name: "captured, refund PENDING",
    amounts: { authorizedAmount: "1999", capturedAmount: "1999" },
    operations: [
      op("cap", "CAPTURE", "EXECUTED", 1),
      op("ref", "REFUND", "PENDING", 2, { operationAmount: "300", cancelledOperationId: "cap" }),
    ],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "0",
      pendingRefundMinor: "300",
      refundIds: ["ref"],
    },
  },
  {
    name: "capture cancelled via CANCEL: authorized again",
    amounts: { authorizedAmount: "1999", capturedAmount: "0" },
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("cap", "CAPTURE", "EXECUTED", 2),
      op("cancel", "CANCEL", "EXECUTED", 3, { cancelledOperationId: "cap" }),
    ],
    expected: {
      status: "authorized",
      paymentOperationId: "auth",
      authorizedMinor: "1999",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "authorization voided by a REFUND on it with result VOIDED",
    amounts: { authorizedAmount: "0", capturedAmount: "0" },
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("void", "REFUND", "VOIDED", 2, { cancelledOperationId: "auth" }),
    ],
    expected: {
      status: "canceled",
      reason: /authorization was voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
      refundIds: [],
    },
  },
  {
    name: "authorization voided by a VOID naming it (the simulator's record)",
    amounts: { authorizedAmount: "0", capturedAmount: "0" },
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("void", "VOID", "VOIDED", 2, { cancelledOperationId: "auth" }),
    ],
    expected: {
      status: "canceled",
      reason: /voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },

  // fix 1: the gateway reports 0 or nothing authorized after an IMPLICIT capture.
  {
    name: "fix: IMPLICIT capture with authorizedAmount 0 is authorized for the captured amount",
    amounts: { authorizedAmount: "0", capturedAmount: "1999" },
    operations: [op("cap", "CAPTURE", "EXECUTED", 1)],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "fix: IMPLICIT capture without authorizedAmount is authorized for the captured amount",
    operations: [op("cap", "CAPTURE", "EXECUTED", 1)],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "fix: authorizedAmount 0 with a live AUTHORIZATION takes the authorization's amount",
    amounts: { authorizedAmount: "0" },
    operations: [op("auth", "AUTHORIZATION", "AUTHORIZED", 1)],
    expected: {
      status: "authorized",
      paymentOperationId: "auth",
      authorizedMinor: "1999",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },

  // fix 2: voids that do not name what they undo.
  {
    name: "fix: REFUND/VOIDED with an empty cancelledOperationId voids the authorization",
    amounts: { authorizedAmount: "0", capturedAmount: "0" },
    operations: [op("auth", "AUTHORIZATION", "AUTHORIZED", 1), op("void", "REFUND", "VOIDED", 2)],
    expected: {
      status: "canceled",
      reason: /authorization was voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
      refundIds: [],
    },
  },
  {
    name: "fix: REFUND/VOIDED without cancelledOperationId voids the authorization",
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("void", "REFUND", "VOIDED", 2, { cancelledOperationId: undefined }),
    ],
    expected: {
      status: "canceled",
      reason: /authorization was voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
      refundIds: [],
    },
  },
  {
    name: "fix: VOID/VOIDED without cancelledOperationId voids the authorization",
    operations: [op("auth", "AUTHORIZATION", "AUTHORIZED", 1), op("void", "VOID", "VOIDED", 2)],
    expected: {
      status: "canceled",
      reason: /voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "fix: VOID/EXECUTED naming the authorization voids it",
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("void", "VOID", "EXECUTED", 2, { cancelledOperationId: "auth" }),
    ],
    expected: {
      status: "canceled",
      reason: /voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "fix: VOID/EXECUTED without cancelledOperationId voids the authorization",
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("void", "VOID", "EXECUTED", 2, { cancelledOperationId: undefined }),
    ],
    expected: {
      status: "canceled",
      reason: /voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "fix: a void after a cancelled capture ends the payment",
    operations: [
      op("auth", "AUTHORIZATION", "AUTHORIZED", 1),
      op("cap", "CAPTURE", "EXECUTED", 2),
      op("cancel", "CANCEL", "EXECUTED", 3, { cancelledOperationId: "cap" }),
      op("void", "REFUND", "VOIDED", 4),
    ],
    expected: {
      status: "canceled",
      reason: /voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "a VOID that failed leaves the authorization standing",
    operations: [op("auth", "AUTHORIZATION", "AUTHORIZED", 1), op("void", "VOID", "FAILED", 2)],
    expected: {
      status: "authorized",
      paymentOperationId: "auth",
      authorizedMinor: "1999",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },

  // fix 3: the authorization itself turned VOIDED.
  {
    name: "fix: AUTHORIZATION updated in place to VOIDED is canceled",
    amounts: { authorizedAmount: "0", capturedAmount: "0" },
    operations: [op("auth", "AUTHORIZATION", "VOIDED", 1)],
    expected: {
      status: "canceled",
      reason: /authorization was voided/,
      paymentOperationId: "auth",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },

  // fix 4: operations without a readable time. Untimed ones keep their place in the list;
  // the timed ones are put in time order around them.
  {
    name: "fix: timed operations out of list order around one without a time",
    operations: [
      op("late", "AUTHORIZATION", "DECLINED", 3),
      op("untimed", "AUTHORIZATION", "THREEDS_VALIDATED", undefined),
      op("early", "AUTHORIZATION", "PENDING", 1),
    ],
    expected: {
      status: "error",
      reason: /declined/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "fix: an unparsable time is treated as no time",
    operations: [
      op("late", "AUTHORIZATION", "THREEDS_FAILED", 3),
      op("garbled", "AUTHORIZATION", "THREEDS_VALIDATED", undefined, { operationTime: "yesterday" }),
      op("early", "AUTHORIZATION", "PENDING", 1),
    ],
    expected: {
      status: "error",
      reason: /3-D Secure/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "an untimed operation last in the list stays the latest",
    operations: [op("declined", "AUTHORIZATION", "DECLINED", 1), op("retry", "AUTHORIZATION", "PENDING", undefined)],
    expected: {
      status: "pending",
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "no operation has a time: list order decides",
    operations: [
      op("passed", "AUTHORIZATION", "THREEDS_VALIDATED", undefined),
      op("failed", "AUTHORIZATION", "FAILED", undefined),
    ],
    expected: {
      status: "error",
      reason: /technical/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },
  {
    name: "equal times keep list order",
    operations: [op("passed", "AUTHORIZATION", "THREEDS_VALIDATED", 1), op("canceled", "AUTHORIZATION", "CANCELED", 1)],
    expected: {
      status: "canceled",
      reason: /shopper cancelled/,
      authorizedMinor: "0",
      capturedMinor: "0",
      refundedMinor: "0",
      pendingRefundMinor: "0",
    },
  },

  // fix 5: pending refunds apart from executed ones; VOIDED is no refunded money.
  {
    name: "fix: pending refunds are summed apart from executed ones",
    amounts: { authorizedAmount: "1999", capturedAmount: "1999" },
    operations: [
      op("cap", "CAPTURE", "EXECUTED", 1),
      op("ref1", "REFUND", "REFUNDED", 2, { operationAmount: "500", cancelledOperationId: "cap" }),
      op("ref2", "REFUND", "PENDING", 3, { operationAmount: "300", cancelledOperationId: "cap" }),
      op("ref3", "REFUND", "PENDING", 4, { operationAmount: "200", cancelledOperationId: "cap" }),
      op("ref4", "REFUND", "FAILED", 5, { operationAmount: "999", cancelledOperationId: "cap" }),
    ],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "1999",
      capturedMinor: "1999",
      refundedMinor: "500",
      pendingRefundMinor: "500",
      refundIds: ["ref1", "ref2", "ref3"],
    },
  },
  {
    name: "fix: pending refund amounts beyond 2^53 minor units add exactly",
    operations: [
      op("cap", "CAPTURE", "EXECUTED", 1, { operationAmount: "90071992547409930" }),
      op("ref1", "REFUND", "PENDING", 2, { operationAmount: "9007199254740993", cancelledOperationId: "cap" }),
      op("ref2", "REFUND", "PENDING", 3, { operationAmount: "1", cancelledOperationId: "cap" }),
    ],
    expected: {
      status: "captured",
      paymentOperationId: "cap",
      captureOperationId: "cap",
      authorizedMinor: "90071992547409930",
      capturedMinor: "90071992547409930",
      refundedMinor: "0",
      pendingRefundMinor: "9007199254740994",
      refundIds: ["ref1", "ref2"],
    },
  },
]

function orderOf(history: History): OrderDetails {
  return {
    orderStatus: { order: { orderId: "ORDER1", amount: "1999", currency: "EUR" }, ...history.amounts },
    operations: history.operations,
    paymentLinks: [],
  }
}

describe("readCardOrder over whole gateway histories", () => {
  it.each(HISTORIES)("$name", (history) => {
    const { reason, refundIds, ...fields } = history.expected
    const state = readCardOrder(orderOf(history))
    const {
      status,
      paymentOperationId,
      captureOperationId,
      authorizedMinor,
      capturedMinor,
      refundedMinor,
      pendingRefundMinor,
    } = state
    // toEqual, not toMatchObject: an id a row leaves out must be absent from the state too.
    expect({
      status,
      paymentOperationId,
      captureOperationId,
      authorizedMinor,
      capturedMinor,
      refundedMinor,
      pendingRefundMinor,
    }).toEqual(fields)
    if (reason) expect(state.reason).toMatch(reason)
    else expect(state.reason).toBeUndefined()
    if (refundIds) expect(state.refunds.map((refund) => refund.operationId)).toEqual(refundIds)
  })

  it("reads the same state whatever the order of the list when every operation has a time", () => {
    const history = HISTORIES.find((row) => row.name.startsWith("fix: pending refunds"))!
    const reversed = { ...history, operations: [...history.operations].reverse() }
    const { refunds: _forward, ...forward } = readCardOrder(orderOf(history))
    const { refunds: _backward, ...backward } = readCardOrder(orderOf(reversed))
    expect(backward).toEqual(forward)
  })
})
